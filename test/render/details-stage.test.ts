/**
 * Each model detail of render v2 changes the frames where it should, on the real farm stage
 * in Chromium: the GPU's name text (another name, another text), the cable set (drawn vs left
 * out), AIO tubes (only with a liquid cooler), a dual-chamber case showing its interior
 * through the glass front. And the cinematic look (mirror floor, bloom, shadows) stays
 * deterministic: identical requests give identical pixels, frame N equals frame 0, and a
 * frame does not depend on what was drawn before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StageBuild, StageOptions } from '../../src/model/stage-contract.js';
import type { BrowserPool } from '../../src/render/browser-pool.js';
import type { RenderEngine } from '../../src/render/engine.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import type { Part } from '../../src/model/part.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { testEngine } from '../helpers/engine.js';
import { diffFraction } from '../helpers/pixels.js';

let engine: RenderEngine;
let pool: BrowserPool;

function stageOptions(o: Partial<StageOptions> = {}): StageOptions {
  const r = resolveRenderOptions({ format: 'sprite', width: 384, height: 384, profile: 'cinematic', showGrid: false });
  return { ...r, frames: 72, transparent: false, ...o };
}

/** PNGs of frames `indices` of one load of `build` (stage API straight, so tests can use `omit`). */
async function frames(build: StageBuild, o: Partial<StageOptions>, indices: number[]): Promise<Buffer[]> {
  return pool.use(async ({ page }) => {
    await page.evaluate((b, opts) => window.renderStage!.load(b, opts), build as never, stageOptions(o) as never);
    const out: Buffer[] = [];
    for (const i of indices) {
      const url = await page.evaluate((k) => {
        window.renderStage!.renderFrame(k);
        return window.renderStage!.canvas().toDataURL('image/png');
      }, i);
      out.push(Buffer.from(url.split(',')[1]!, 'base64'));
    }
    await page.evaluate(() => window.renderStage!.dispose());
    return out;
  });
}

const one = async (build: StageBuild, o: Partial<StageOptions> = {}, index = 0) =>
  (await frames(build, o, [index]))[0]!;
const withPart = (build: StageBuild, part: Part): StageBuild => ({
  ...build,
  parts: { ...build.parts, [part.category]: [part] },
});
/** frame of a 72-frame turn where the case front faces the camera (the hero angle is 50 degrees round) */
const FRONT = 62;

describe('render v2 details on the farm stage', () => {
  beforeAll(async () => {
    engine = await testEngine();
    pool = engine.pool;
  });
  afterAll(async () => {
    await engine?.close();
  });

  it("the GPU's edge shows its catalog name: another model name, other pixels", async () => {
    const base = demoStageBuild('DEMO-GLASS');
    const gpu = base.parts.GPU![0]!;
    const close = { cameraZoom: 0.5, width: 512, height: 512 };
    const a = await one(base, close);
    // same card, another catalog name: "GEFORCE RTX 4070 Ti SUPER" becomes "GEFORCE GTX 1650"
    const b = await one(withPart(base, { ...gpu, name: 'Kestrel GeForce GTX 1650 4GB' }), close);
    // and an AMD card of the same size: "RADEON RX 7600"
    const c = await one(
      withPart(base, { ...gpu, name: 'Kestrel Radeon RX 7600 8GB', specs: { ...gpu.specs, brand: 'AMD' } } as Part),
      close,
    );
    const same = await one(withPart(base, { ...gpu }), close);
    expect(await diffFraction(a, b)).toBeGreaterThan(0.0008);
    expect(await diffFraction(a, c)).toBeGreaterThan(0.0015);
    expect(a.equals(same)).toBe(true);
  });

  it('the cable set is drawn (leaving it out changes the frame)', async () => {
    const base = demoStageBuild('DEMO-GLASS');
    expect(await diffFraction(await one(base), await one(base, { omit: ['cables'] }))).toBeGreaterThan(0.002);
  });

  it('AIO tubes show with a liquid cooler and do not exist with an air cooler', async () => {
    const aio = demoStageBuild('DEMO-WHITE');
    expect(await diffFraction(await one(aio), await one(aio, { omit: ['aio-tubes'] }))).toBeGreaterThan(0.002);
    const air = demoStageBuild('DEMO-GLASS');
    expect((await one(air)).equals(await one(air, { omit: ['aio-tubes'] }))).toBe(true);
  });

  it('a dual-chamber case shows its interior through the glass front', async () => {
    const rgb = demoStageBuild('DEMO-RGB');
    const empty: StageBuild = {
      ...rgb,
      parts: { PCCase: rgb.parts.PCCase, Motherboard: rgb.parts.Motherboard, PSU: rgb.parts.PSU },
      state: null,
    };
    const front = await one(rgb, {}, FRONT);
    const frontEmpty = await one(empty, {}, FRONT);
    expect(await diffFraction(front, frontEmpty)).toBeGreaterThan(0.02);
  });

  it('cinematic stays deterministic: same pixels per request, frame N = frame 0, order-free', async () => {
    const build = demoStageBuild('DEMO-RGB');
    const [f0, f5, f72] = await frames(build, {}, [0, 5, 72]);
    const [g5] = await frames(build, {}, [5]);
    const [h0] = await frames(build, {}, [0]);
    expect(f0!.equals(h0!)).toBe(true);
    expect(f0!.equals(f72!)).toBe(true);
    expect(f5!.equals(g5!)).toBe(true);
    expect(await diffFraction(f0!, f5!)).toBeGreaterThan(0.01);
  });
});
