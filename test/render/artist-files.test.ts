/**
 * Files artists export, prepared for real (prepareModel: Draco decoded, spec-gloss converted to
 * metal-rough) and drawn on the real stage (Chromium, three.js's GLTFLoader with the meshopt
 * decoder only, as in production): the GPU's magenta shroud shows where the card is. A spec-gloss
 * file was stored with its extension kept, which three.js no longer reads: it drew white.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { normalizeSpecs } from '../../src/model/normalize-specs.js';
import type { Part } from '../../src/model/part.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import type { StageBuild } from '../../src/model/stage-contract.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import type { RenderEngine } from '../../src/render/engine.js';
import { withOverrides } from '../../src/render/model-source.js';
import { dracoGlb, specGlossGlb } from '../helpers/artist-models.js';
import { testEngine } from '../helpers/engine.js';
import { distinctiveGpu } from '../helpers/gltf-fixtures.js';
import { rgb } from '../helpers/pixels.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

let engine: RenderEngine;
const base = demoStageBuild('DEMO-GLASS');
const gpu = base.parts.GPU![0]! as Part<'GPU'>;
const gpuSpecs = normalizeSpecs('GPU', gpu, []);
const limits = TEST_MODEL_LIMITS;

/** The frame with `glb` prepared as the GPU's model, and its count of magenta and near-white pixels. */
async function drawn(name: string, glb: Uint8Array): Promise<{ magenta: number; white: number }> {
  const prepared = await prepareModel(
    modelInputFromBytes(name, glb),
    { id: gpu.id, category: 'GPU', specs: gpu.specs },
    { limits },
  );
  const o = withOverrides(null, [prepared.glb]);
  const build: StageBuild = { ...base, models: { [gpu.id]: o.shas[0]! } };
  const png = (
    await engine.stills({
      build,
      options: resolveRenderOptions({ width: 256, height: 256, profile: 'fast' }),
      indices: [0],
      models: o.source,
    })
  )[0]!;
  const px = await rgb(png);
  let magenta = 0;
  let white = 0;
  for (let i = 0; i < px.data.length; i += 3) {
    const [r, g, b] = [px.data[i]!, px.data[i + 1]!, px.data[i + 2]!];
    if (r > 120 && b > 60 && g < 60) magenta++;
    if (r > 200 && g > 200 && b > 200) white++;
  }
  return { magenta, white };
}

describe('files artists export, drawn', () => {
  beforeAll(async () => {
    engine = await testEngine();
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
  });

  it('a Draco GPU draws its magenta shroud, as the plain file does', async () => {
    const plain = await drawn('plain.glb', await distinctiveGpu(gpuSpecs.lengthMm, gpuSpecs.slotWidth).glb());
    const draco = await drawn('draco.glb', await dracoGlb(distinctiveGpu(gpuSpecs.lengthMm, gpuSpecs.slotWidth)));
    expect(plain.magenta).toBeGreaterThan(100);
    expect(draco.magenta).toBeGreaterThan(plain.magenta * 0.8);
  }, 120_000);

  it('a spec-gloss GPU draws magenta, not white', async () => {
    const plain = await drawn('plain.glb', await distinctiveGpu(gpuSpecs.lengthMm, gpuSpecs.slotWidth).glb());
    const sg = await drawn('specgloss.glb', await specGlossGlb(distinctiveGpu(gpuSpecs.lengthMm, gpuSpecs.slotWidth)));
    expect(sg.magenta).toBeGreaterThan(plain.magenta * 0.5);
    expect(sg.white).toBeLessThan(plain.white + 200);
  }, 120_000);
});
