/**
 * Textures over the texture limit are resized by preparation and say so (docs/part-models.md): one
 * warning per texture, `texture N: WxH -> WxH`, grouped when several; none for a texture within
 * the limit. Real preparation (sharp, glTF-Transform), no mocks.
 */
import { describe, expect, it } from 'vitest';
import { demoPart } from '../../src/catalog/demo-catalog.js';
import type { Part } from '../../src/model/part.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import type { ModelLimits } from '../../src/part-models/model-limits.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { texturedGpu } from '../helpers/gltf-fixtures.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const gpu = demoPart('gpuTriple3Fan') as Part<'GPU'>;
const limits = (maxTexture: number): ModelLimits => ({ ...TEST_MODEL_LIMITS, modelMaxTextureSize: maxTexture });

async function prepared(texturePx: number, maxTexture: number) {
  const glb = await (await texturedGpu(texturePx, gpu.specs.lengthMm, gpu.specs.slotWidth)).glb();
  return prepareModel(modelInputFromBytes('gpu.glb', glb), gpu, { limits: limits(maxTexture) });
}

describe('texture downsizing', () => {
  it('a texture over the limit is resized and reported: texture 0: 512x512 -> 256x256', async () => {
    const p = await prepared(512, 256);
    expect(p.warnings).toContainEqual(
      expect.stringMatching(/^texture 0: 512x512 -> 256x256 \(over the texture limit of 256 px/),
    );
  });

  it('a texture within the limit: no resize warning', async () => {
    const p = await prepared(128, 256);
    expect(p.warnings.filter((w) => w.startsWith('texture '))).toEqual([]);
  });
});
