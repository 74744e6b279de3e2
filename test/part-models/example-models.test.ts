/**
 * The example models (`render-farm models example`): for every category that takes a model, the
 * example of a demo part passes the real validation and preparation (size against the catalog,
 * Khronos validator) and shows the conventions it exists to show; the benchmark's dense textured
 * variant reaches its triangle target.
 */
import { describe, expect, it } from 'vitest';
import { demoPart, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import { isRgbMaterial, MODEL_CATEGORIES } from '../../src/model/part-models.js';
import { exampleModel } from '../../src/part-models/example-models.js';
import { ModelRejectedError } from '../../src/part-models/model-errors.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { modelIO } from '../../src/part-models/model-io.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const limits = TEST_MODEL_LIMITS;

describe('example models', () => {
  for (const category of MODEL_CATEGORIES) {
    it(`${category}: a demo part's example prepares without --fit and keeps its RGB material`, async () => {
      const part = DEMO_PARTS.find((p) => p.category === category)!;
      const glb = await (await exampleModel(part)).glb();
      const prepared = await prepareModel(modelInputFromBytes(`${category}.glb`, glb), part, { limits });
      expect(prepared.scale).toBe(1);
      expect(prepared.triangles).toBeGreaterThan(0);
      const doc = await (await modelIO()).readBinary(prepared.glb);
      const rgb = doc
        .getRoot()
        .listMaterials()
        .filter((m) => isRgbMaterial(m.getName(), m.getExtras()));
      // every example but the PSU and the board shows an RGB material
      expect(rgb.length > 0).toBe(!['PSU', 'Motherboard'].includes(category));
      if (category === 'PCCase') {
        expect(prepared.anchors).toEqual(
          expect.arrayContaining([
            'anchor_motherboard_tray',
            'anchor_psu_bay',
            'anchor_fan_front_1',
            'anchor_fan_rear_1',
          ]),
        );
        expect(
          doc
            .getRoot()
            .listMaterials()
            .some((m) => m.getAlphaMode() === 'BLEND'),
        ).toBe(true);
      }
    });
  }

  it('reaches a triangle target and carries a texture (the benchmark models)', async () => {
    const part = demoPart('gpuTriple3Fan');
    const glb = await (await exampleModel(part, { triangles: 50_000, texturePx: 1024 })).glb();
    const prepared = await prepareModel(modelInputFromBytes('gpu.glb', glb), part, { limits });
    expect(prepared.triangles).toBeGreaterThan(40_000);
    expect(prepared.triangles).toBeLessThan(60_000);
    expect(prepared.textures).toBe(1);
  });

  it('refuses a category that takes no model', async () => {
    await expect(exampleModel(demoPart('cpuR9'))).rejects.toBeInstanceOf(ModelRejectedError);
  });
});
