/** Part models on the real stage (Chromium): drawn where their part goes, RGB from the saved colour, deterministic, parsed once. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { normalizeSpecs } from '../../src/model/normalize-specs.js';
import type { Part } from '../../src/model/part.js';
import { resolveRenderOptions, type RenderOptions } from '../../src/model/render-options.js';
import { toStageOptions, type StageBuild } from '../../src/model/stage-contract.js';
import { callStage } from '../../src/render/call-stage.js';
import type { RenderEngine } from '../../src/render/engine.js';
import { renderModelPreview } from '../../src/render/model-preview.js';
import { withOverrides } from '../../src/render/model-source.js';
import { testEngine } from '../helpers/engine.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { caseWithAnchors, distinctiveGpu, rgbFan } from '../helpers/gltf-fixtures.js';
import { exampleAuthoredAs, TURNS } from '../helpers/real-exports.js';
import { diffFraction, rgb } from '../helpers/pixels.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

let engine: RenderEngine;
const base = demoStageBuild('DEMO-GLASS');
const gpu = base.parts.GPU![0]! as Part<'GPU'>;
const gpuSpecs = normalizeSpecs('GPU', gpu, []);
const opts = (o: RenderOptions = {}) => resolveRenderOptions({ width: 256, height: 256, profile: 'fast', ...o });

/** A build whose `models` names each given part's GLB, and the source serving them. */
function withModels(
  build: StageBuild,
  given: Record<string, Uint8Array>,
): { build: StageBuild; models: ReturnType<typeof withOverrides>['source'] } {
  const ids = Object.keys(given);
  const o = withOverrides(null, Object.values(given));
  return { build: { ...build, models: Object.fromEntries(ids.map((id, i) => [id, o.shas[i]!])) }, models: o.source };
}

const still = async (
  build: StageBuild,
  models?: ReturnType<typeof withOverrides>['source'],
  o: RenderOptions = {},
  frame = 0,
) => (await engine.stills({ build, options: opts(o), indices: [frame], ...(models ? { models } : {}) }))[0]!;

/** Pixels (by index) where two images differ by more than `tol` in any channel. */
async function diffMask(
  a: Buffer,
  b: Buffer,
  tol = 8,
): Promise<{ mask: Uint8Array; width: number; height: number; count: number }> {
  const [x, y] = await Promise.all([rgb(a), rgb(b)]);
  const mask = new Uint8Array(x.width * x.height);
  let count = 0;
  for (let p = 0; p < mask.length; p++) {
    const i = p * 3;
    if (
      Math.abs(x.data[i]! - y.data[i]!) > tol ||
      Math.abs(x.data[i + 1]! - y.data[i + 1]!) > tol ||
      Math.abs(x.data[i + 2]! - y.data[i + 2]!) > tol
    ) {
      mask[p] = 1;
      count++;
    }
  }
  return { mask, width: x.width, height: x.height, count };
}

function dilate(mask: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      for (let dy = -r; dy <= r; dy++)
        for (let dx = -r; dx <= r; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy >= 0 && yy < height && xx >= 0 && xx < width) out[yy * width + xx] = 1;
        }
    }
  return out;
}

describe('part models on the stage', () => {
  beforeAll(async () => {
    engine = await testEngine();
  });
  afterAll(async () => {
    await engine?.close();
  });

  it("a GPU model changes the pixels in the GPU's region and nowhere else", async () => {
    const glb = await distinctiveGpu(gpuSpecs.lengthMm, gpuSpecs.slotWidth).glb();
    const { build, models } = withModels(base, { [gpu.id]: glb });
    const procedural = await still(base);
    const model = await still(build, models);
    // the GPU's region: where recolouring the procedural card changes the frame
    const white = {
      ...base,
      parts: { ...base.parts, GPU: [{ ...gpu, specs: { ...gpu.specs, color: '#f4f4f4' } }] },
    } as StageBuild;
    const region = await diffMask(procedural, await still(white));
    expect(region.count).toBeGreaterThan(200);
    const changed = await diffMask(procedural, model);
    expect(changed.count).toBeGreaterThan(region.count * 0.3);
    const near = dilate(region.mask, region.width, region.height, 6);
    let outside = 0;
    for (let p = 0; p < near.length; p++) if (changed.mask[p] && !near[p]) outside++;
    expect(outside / changed.count).toBeLessThan(0.03);
    // the model's magenta shroud shows
    const px = await rgb(model);
    let magenta = 0;
    for (let i = 0; i < px.data.length; i += 3)
      if (px.data[i]! > 120 && px.data[i + 2]! > 60 && px.data[i + 1]! < 60) magenta++;
    expect(magenta).toBeGreaterThan(100);
  });

  it('a GPU authored lying along X in millimetres, prepared with no flag, is drawn upright in its slot at its true size (docs/part-models.md)', async () => {
    const limits = TEST_MODEL_LIMITS;
    const exported = await prepareModel(
      modelInputFromBytes('gpu-mm.glb', await exampleAuthoredAs(gpu, TURNS.yPlus90, 'mm')),
      gpu,
      { limits },
    );
    expect(exported.orientation.summary).toBe('rotated: -90 deg about Y; units: mm -> m');
    const authored = await prepareModel(
      modelInputFromBytes('gpu.glb', await exampleAuthoredAs(gpu, TURNS.none, 'm')),
      gpu,
      { limits },
    );
    const procedural = await still(base);
    const e = withModels(base, { [gpu.id]: exported.glb });
    const drawn = await still(e.build, e.models);
    // in the GPU's region (as the first test finds it), and only there
    const white = {
      ...base,
      parts: { ...base.parts, GPU: [{ ...gpu, specs: { ...gpu.specs, color: '#f4f4f4' } }] },
    } as StageBuild;
    const region = await diffMask(procedural, await still(white));
    const changed = await diffMask(procedural, drawn);
    expect(changed.count).toBeGreaterThan(50);
    const near = dilate(region.mask, region.width, region.height, 6);
    let outside = 0;
    for (let p = 0; p < near.length; p++) if (changed.mask[p] && !near[p]) outside++;
    expect(outside / changed.count).toBeLessThan(0.03);
    // the same picture as the model authored in the product's frame
    const a = withModels(base, { [gpu.id]: authored.glb });
    expect(await diffFraction(drawn, await still(a.build, a.models))).toBeLessThan(0.002);
  });

  it('the same frame with models twice is identical (cinematic)', async () => {
    const { build, models } = withModels(base, {
      [gpu.id]: await distinctiveGpu(gpuSpecs.lengthMm, gpuSpecs.slotWidth).glb(),
      [base.parts.CaseFan![0]!.id]: await rgbFan(120).glb(),
    });
    const a = await still(build, models, { profile: 'cinematic' }, 7);
    const b = await still(build, models, { profile: 'cinematic' }, 7);
    expect(a.equals(b)).toBe(true);
  });

  it("an RGB-tagged fan ring takes the build's saved colour", async () => {
    // the case, board and fans only: the model's ring is the one RGB surface left
    const parts = { PCCase: base.parts.PCCase, Motherboard: base.parts.Motherboard, CaseFan: base.parts.CaseFan };
    const fans = Object.fromEntries(
      await Promise.all(base.parts.CaseFan!.map(async (f) => [f.id, await rgbFan(120, 'extras').glb()] as const)),
    );
    const colour = (color: string) =>
      withModels({ parts, state: { ...base.state!, rgb: { mode: 'static', color } } } as StageBuild, fans);
    const g = colour('#00ff00');
    const r = colour('#ff0000');
    const green = await still(g.build, g.models);
    const red = await still(r.build, r.models);
    const changed = await diffMask(green, red);
    expect(changed.count).toBeGreaterThan(100);
    const [gp, rp] = await Promise.all([rgb(green), rgb(red)]);
    let greenWins = 0;
    let redWins = 0;
    for (let p = 0; p < changed.mask.length; p++) {
      if (!changed.mask[p]) continue;
      const i = p * 3;
      if (gp.data[i + 1]! > gp.data[i]! + 40) greenWins++;
      if (rp.data[i]! > rp.data[i + 1]! + 40) redWins++;
    }
    expect(greenWins / changed.count).toBeGreaterThan(0.6);
    expect(redWins / changed.count).toBeGreaterThan(0.6);
  });

  it("a case model's anchors move the board", async () => {
    const caseId = base.parts.PCCase![0]!.id;
    const anchored = caseWithAnchors(230, 485, 450);
    const bare = caseWithAnchors(230, 485, 450);
    for (const n of bare.doc.getRoot().listNodes()) if (n.getName().startsWith('anchor_')) n.dispose();
    const a = withModels(base, { [caseId]: await anchored.glb() });
    const b = withModels(base, { [caseId]: await bare.glb() });
    expect(await diffFraction(await still(a.build, a.models), await still(b.build, b.models))).toBeGreaterThan(0.01);
  });

  it('parses a model once across loads (the page library), and a missing model fails the load naming the part and sha256', async () => {
    const glb = await distinctiveGpu(gpuSpecs.lengthMm, gpuSpecs.slotWidth, 2).glb();
    const { build, models } = withModels(base, { [gpu.id]: glb });
    const options = toStageOptions(opts(), { warm: false });
    await engine.pool.use(async ({ page, server }) => {
      const previous = server.setModelSource(models);
      try {
        const first = await callStage(page, 'renderStage.load', build, options);
        const second = await callStage(page, 'renderStage.load', build, options);
        expect(first.models).toBeDefined();
        expect(second.models!.parses).toBe(first.models!.parses);
        const missing = { ...build, models: { [gpu.id]: 'ab'.repeat(32) } };
        await expect(callStage(page, 'renderStage.load', missing, options)).rejects.toThrow(
          new RegExp(`part model of ${gpu.id} \\(sha256 ${'ab'.repeat(32)}\\).*404`),
        );
        const third = await callStage(page, 'renderStage.load', build, options);
        expect(third.models!.parses).toBe(first.models!.parses + 1);
      } finally {
        server.setModelSource(previous);
        await callStage(page, 'renderStage.dispose');
      }
    });
  });

  it('models preview: the part drawn as its model alone, unlike the procedural part', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'model-preview-'));
    try {
      const glb = await distinctiveGpu(gpuSpecs.lengthMm, gpuSpecs.slotWidth).glb();
      const out = path.join(dir, 'still.png');
      const result = await renderModelPreview(engine, { ...gpu, category: 'GPU' }, glb, {
        out,
        width: 256,
        height: 256,
        profile: 'fast',
      });
      expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
      const png = await readFile(out);
      const procedural = (
        await engine.stills({ build: { parts: { GPU: [gpu] }, state: null }, options: opts(), indices: [0] })
      )[0]!;
      expect(await diffFraction(png, procedural)).toBeGreaterThan(0.02);
      const px = await rgb(png);
      let magenta = 0;
      for (let i = 0; i < px.data.length; i += 3)
        if (px.data[i]! > 120 && px.data[i + 2]! > 60 && px.data[i + 1]! < 60) magenta++;
      expect(magenta).toBeGreaterThan(500);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
