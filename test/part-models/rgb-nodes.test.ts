/**
 * RGB by node name (docs/part-models.md): exporters name the object (`ARGB_strip`), not its material.
 * Preparation moves the tag to the material (join() drops node names), on a copy where another
 * node shares the material, which stays plain. Real preparation, the prepared GLB read back.
 */
import { describe, expect, it } from 'vitest';
import { demoPart } from '../../src/catalog/demo-catalog.js';
import type { Part } from '../../src/model/part.js';
import { isRgbMaterial } from '../../src/model/part-models.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { modelIO } from '../../src/part-models/model-io.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { FixtureDoc } from '../helpers/gltf-fixtures.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const gpu = demoPart('gpuTriple3Fan') as Part<'GPU'>;
const limits = TEST_MODEL_LIMITS;

async function preparedMaterials(stripName: string) {
  const f = new FixtureDoc('gpu');
  const [L, T] = [gpu.specs.lengthMm / 1000, (gpu.specs.slotWidth * 20.32) / 1000];
  // one material for both: the strip is RGB by its node's name only
  f.box({ size: [0.126, T, L], color: '#111111', material: 'black' }, 'shroud');
  f.box({ size: [0.005, T * 0.3, L * 0.8], at: [-0.066, 0, 0], color: '#111111', material: 'black' }, stripName);
  const p = await prepareModel(modelInputFromBytes('gpu.glb', await f.glb()), gpu, { limits });
  return (await (await modelIO()).readBinary(p.glb)).getRoot().listMaterials();
}

describe('RGB by node name', () => {
  it.each(['ARGB_strip', 'strip_RGBW', 'RGB'])(
    'a node named %s gets an RGB copy of its material; the shroud keeps the plain one',
    async (name) => {
      const materials = await preparedMaterials(name);
      expect(materials.filter((m) => isRgbMaterial(m.getName(), m.getExtras()))).toHaveLength(1);
      expect(materials.filter((m) => !isRgbMaterial(m.getName(), m.getExtras())).map((m) => m.getName())).toEqual([
        'black',
      ]);
    },
  );

  it('a model in one piece named ARGB_Fan_120 (the product, not its light): no RGB material', async () => {
    const f = new FixtureDoc('gpu');
    f.box(
      {
        size: [0.126, (gpu.specs.slotWidth * 20.32) / 1000, gpu.specs.lengthMm / 1000],
        color: '#111111',
        material: 'black',
      },
      'ARGB_Fan_120',
    );
    const p = await prepareModel(modelInputFromBytes('gpu.glb', await f.glb()), gpu, { limits });
    const materials = (await (await modelIO()).readBinary(p.glb)).getRoot().listMaterials();
    expect(materials.filter((m) => isRgbMaterial(m.getName(), m.getExtras()))).toEqual([]);
  });

  it('a node not named as RGB: no RGB material', async () => {
    const materials = await preparedMaterials('strip');
    expect(materials.filter((m) => isRgbMaterial(m.getName(), m.getExtras()))).toEqual([]);
  });
});
