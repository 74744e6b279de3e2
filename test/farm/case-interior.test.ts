/**
 * A case model without anchors (docs/part-models.md): the procedural build goes inside the model's
 * measured interior (its box less the wall thickness), each part at its catalog size and at its
 * distance to the nearest wall, instead of the layout of the catalog's case size (which floated
 * the build outside a smaller model, or left it in a corner of a larger one). Node, no page.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { buildBuildGroup } from '../../farm/src/build-scene.js';
import { parseGlb } from '../../farm/src/models/glb-library.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { CASE_MODEL_WALL_MM } from '../../src/model/part-models.js';
import { caseWalls, FixtureDoc } from '../helpers/gltf-fixtures.js';
import { boxOf, partsIn, within } from '../helpers/scene.js';

const base = demoStageBuild('DEMO-GLASS');
const caseId = base.parts.PCCase![0]!.id;
const INSIDE = ['Motherboard', 'CPU', 'CPUCooler', 'GPU', 'RAM', 'PSU', 'CaseFan'] as const;

/** A case shell `w x h x d` mm with no anchors: floor, roof, rear, front and both sides. */
async function shell(w: number, h: number, d: number, extras?: Record<string, unknown>): Promise<THREE.Object3D> {
  const f = new FixtureDoc('case');
  const [W, H, D] = [w / 1000, h / 1000, d / 1000];
  caseWalls(f, W, H, D, 0.004, true);
  if (extras) f.root.setExtras(extras);
  const bytes = await f.glb();
  return parseGlb(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

describe('a case model without anchors', () => {
  it('smaller than the catalog case: every procedural part is inside its box, none floating outside', async () => {
    const built = buildBuildGroup(base, { models: new Map([[caseId, await shell(230, 420, 430)]]) });
    const box = boxOf(partsIn(built.group, 'PCCase')[0]!);
    expect(box.max.y).toBeCloseTo(420, 0);
    for (const cat of INSIDE) {
      for (const part of partsIn(built.group, cat))
        expect(within(boxOf(part), box, 1), `${cat} ${JSON.stringify(boxOf(part))} inside ${JSON.stringify(box)}`).toBe(
          true,
        );
    }
  });

  it('larger than the catalog case: the board keeps its distance to the tray side, top and rear, the PSU to the floor; parts keep their sizes', async () => {
    const plain = buildBuildGroup(base);
    const layout = plain.layout!;
    const built = buildBuildGroup(base, { models: new Map([[caseId, await shell(320, 640, 560)]]) });
    const box = boxOf(partsIn(built.group, 'PCCase')[0]!);
    const board = boxOf(partsIn(built.group, 'Motherboard')[0]!);
    const boardBefore = boxOf(partsIn(plain.group, 'Motherboard')[0]!);
    // the procedural shell's walls are WALL (5 mm) thick, as CASE_MODEL_WALL_MM
    expect(box.max.x - board.max.x).toBeCloseTo(layout.width / 2 - boardBefore.max.x, 1);
    expect(box.max.y - board.max.y).toBeCloseTo(layout.height - boardBefore.max.y, 1);
    expect(board.min.z - box.min.z).toBeCloseTo(boardBefore.min.z + layout.depth / 2, 1);
    const size = (b: THREE.Box3) => b.getSize(new THREE.Vector3());
    expect(size(board).distanceTo(size(boardBefore))).toBeLessThan(0.01);
    const psu = boxOf(partsIn(built.group, 'PSU')[0]!);
    expect(psu.min.y - box.min.y).toBeCloseTo(boxOf(partsIn(plain.group, 'PSU')[0]!).min.y, 1);
    for (const cat of INSIDE)
      for (const part of partsIn(built.group, cat)) expect(within(boxOf(part), box, 1), cat).toBe(true);
  });

  it("the wall thickness comes from the model's extras.wall_mm when it has one", async () => {
    const plain = buildBuildGroup(base);
    const thin = buildBuildGroup(base, { models: new Map([[caseId, await shell(320, 640, 560)]]) });
    const thick = buildBuildGroup(base, {
      models: new Map([[caseId, await shell(320, 640, 560, { wall_mm: CASE_MODEL_WALL_MM + 20 })]]),
    });
    const x = (b: ReturnType<typeof buildBuildGroup>) => boxOf(partsIn(b.group, 'Motherboard')[0]!).max.x;
    expect(x(thin) - x(thick)).toBeCloseTo(20, 1);
    expect(plain.layout).toBeDefined();
  });

  it('the catalog size itself: nothing moves (the layout is the interior already)', async () => {
    const plain = buildBuildGroup(base);
    const l = plain.layout!;
    const built = buildBuildGroup(base, { models: new Map([[caseId, await shell(l.width, l.height, l.depth)]]) });
    for (const cat of INSIDE) {
      const a = partsIn(plain.group, cat).map((p) => boxOf(p));
      const b = partsIn(built.group, cat).map((p) => boxOf(p));
      a.forEach((box, i) => expect(box.min.distanceTo(b[i]!.min), cat).toBeLessThan(0.01));
    }
    expect(built.warnings.join('\n')).not.toMatch(/interior/);
  });
});
