/**
 * Part-model LODs (farm/src/models/model-lod.ts) with the real meshoptimizer simplifier, in
 * Node: a dense model loses most of its triangles at an error of several millimetres and none at
 * a hundredth of one; the LOD of a geometry is made once per error and shared by every instance;
 * simplification is deterministic; disposing a template's LODs leaves the template's geometry.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { demoPart } from '../../src/catalog/demo-catalog.js';
import { exampleModel } from '../../src/part-models/example-models.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { parseGlb } from '../../farm/src/models/glb-library.js';
import { applyModelLods, disposeLods, lodReady, pixelSizeAt } from '../../farm/src/models/model-lod.js';
import { modelInstance } from '../../farm/src/layout/model-placement.js';
import { MaterialKit } from '../../farm/src/util/materials.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const limits = TEST_MODEL_LIMITS;

async function denseGpu(): Promise<THREE.Group> {
  const part = demoPart('gpuTriple3Fan');
  const raw = await (await exampleModel(part, { triangles: 30_000 })).glb();
  const { glb } = await prepareModel(modelInputFromBytes('gpu.glb', raw), part, { limits });
  return parseGlb(glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer);
}

/** An instance as the stage places it: millimetres (the wrapper scales the metre model 1000x). */
function instance(template: THREE.Object3D): THREE.Group {
  const group = new THREE.Group();
  group.add(modelInstance(template, new MaterialKit()));
  return group;
}

describe('part-model LODs', () => {
  it('simplifies to the error asked, caches per geometry and error, and is deterministic', async () => {
    await lodReady();
    const template = await denseGpu();
    const coarse = applyModelLods(instance(template), 4); // 4 mm: far above the 1.5 mm ridges
    expect(coarse.before).toBeGreaterThan(25_000);
    expect(coarse.after).toBeLessThan(coarse.before * 0.2);
    const fine = applyModelLods(instance(template), 0.01);
    expect(fine.after).toBe(fine.before);

    // a second instance at the same error gets the same LOD geometry, not a new one
    const [a, b] = [instance(template), instance(template)];
    applyModelLods(a, 4);
    applyModelLods(b, 4);
    const geometries = (g: THREE.Object3D) => {
      const out: THREE.BufferGeometry[] = [];
      // RGB meshes painted with the rainbow own their geometry (and are not simplified)
      g.traverse(
        (o) => (o as THREE.Mesh).isMesh && o.userData.sharedGeometry !== false && out.push((o as THREE.Mesh).geometry),
      );
      return out;
    };
    expect(geometries(a).length).toBeGreaterThan(0);
    expect(geometries(a).every((g, i) => g === geometries(b)[i])).toBe(true);

    // another parse of the same bytes simplifies to the same indices
    const again = instance(await denseGpu());
    applyModelLods(again, 4);
    expect(geometries(again).map((g) => Array.from(g.index!.array))).toEqual(
      geometries(a).map((g) => Array.from(g.index!.array)),
    );

    // disposing the LODs keeps the template's own geometry drawable
    template.traverse((o) => (o as THREE.Mesh).isMesh && disposeLods((o as THREE.Mesh).geometry));
    const after = applyModelLods(instance(template), 4);
    expect(after.after).toBe(coarse.after);
  });

  it('a pixel at a distance: 2 d tan(fov/2) / height', () => {
    const camera = new THREE.PerspectiveCamera(30, 16 / 9, 0.1, 100);
    expect(pixelSizeAt(camera, 2, 720)).toBeCloseTo((2 * 2 * Math.tan(Math.PI / 12)) / 720, 9);
  });
});
