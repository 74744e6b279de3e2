/** What the real farm stage draws responds to the build and options (through the render engine). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toStageOptions, type StageBuild, type StageOptions } from '../../src/model/stage-contract.js';
import { callStage } from '../../src/render/call-stage.js';
import { resolveRenderOptions, type RenderOptions } from '../../src/model/render-options.js';
import type { Part } from '../../src/model/part.js';
import { demoPart, demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { diffFraction, opaquePixels } from '../helpers/pixels.js';
import type { RenderEngine } from '../../src/render/engine.js';
import { testEngine } from '../helpers/engine.js';

let engine: RenderEngine;
const base = demoStageBuild('DEMO-GLASS');
const opts = (o: RenderOptions = {}) => resolveRenderOptions({ width: 256, height: 256, profile: 'flat', ...o });
const still = async (build: StageBuild, o: RenderOptions = {}, transparent = false, frame = 15) =>
  (await engine.stills({ build, options: opts(o), indices: [frame], transparent }))[0]!;
const withPart = (build: StageBuild, part: Part): StageBuild => ({
  ...build,
  parts: { ...build.parts, [part.category]: [part] },
});

describe('farm stage', () => {
  beforeAll(async () => {
    engine = await testEngine();
  });
  afterAll(async () => {
    await engine?.close();
  });

  it('a longer GPU changes the silhouette', async () => {
    const short = await still(withPart(base, demoPart('gpuMini1Fan')));
    const long = await still(withPart(base, demoPart('gpuFlagship')));
    expect(await diffFraction(short, long)).toBeGreaterThan(0.003);
  });

  it('a glass side panel shows something a solid one hides', async () => {
    const glass = base.parts.PCCase![0]!;
    const solid = { ...glass, specs: { ...glass.specs, sidePanel: 'solid' } } as Part;
    expect(
      await diffFraction(await still(base, {}, false, 0), await still(withPart(base, solid), {}, false, 0)),
    ).toBeGreaterThan(0.01);
  });

  it("a build's saved fan placement changes the frames versus the default", async () => {
    expect(
      await diffFraction(await still(base, {}, false, 0), await still({ ...base, state: null }, {}, false, 0)),
    ).toBeGreaterThan(0.001);
  });

  it('winter and spring look different', async () => {
    expect(
      await diffFraction(await still(base, { winterMode: true }), await still(base, { springMode: true })),
    ).toBeGreaterThan(0.05);
  });

  it('cameraZoom 2.0 shows the build smaller than 0.5', async () => {
    const plain = { showBackground: false, showGrid: false };
    const far = await opaquePixels(await still(base, { ...plain, cameraZoom: 2 }, true));
    const near = await opaquePixels(await still(base, { ...plain, cameraZoom: 0.5 }, true));
    expect(far).toBeGreaterThan(0);
    expect(far).toBeLessThan(near);
  });

  it('cinematic bloom reaches the picture where RGB glows, and only there', async () => {
    // each frame rendered whole and with the bloom left out (renderFrame's skip); the glow added
    // nothing until 2026-11-26 (its additive pass wrote alpha 0)
    const o = toStageOptions(opts({ profile: 'cinematic' }));
    const changed = (build: StageBuild) =>
      engine.pool.use(async ({ page }) => {
        await callStage(page, 'renderStage.load', build, o);
        return (await page.evaluate(`(() => {
          const s = window.renderStage, c = s.canvas(), g = c.getContext('webgl2');
          const read = (skip) => { s.renderFrame(0, skip); const px = new Uint8Array(c.width * c.height * 4); g.readPixels(0, 0, c.width, c.height, g.RGBA, g.UNSIGNED_BYTE, px); return px; };
          const a = read([]), b = read(['bloom']);
          let n = 0;
          for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 6) n++;
          return n / (a.length / 4);
        })()`)) as number;
      });
    expect(await changed(demoStageBuild('DEMO-RGB'))).toBeGreaterThan(0.02);
    // RGB off: nothing glows, so the glow pass may not touch a pixel
    expect(
      await changed({
        ...demoStageBuild('DEMO-RGB'),
        state: { ...(demoStageBuild('DEMO-RGB').state ?? {}), rgb: { mode: 'off' } },
      } as StageBuild),
    ).toBe(0);
  });

  it('the page parses its options once, with no defaults of its own: incomplete or impossible options are refused', async () => {
    await engine.pool.use(async ({ page }) => {
      const partial: Partial<StageOptions> = { width: 256 };
      await expect(callStage(page, 'renderStage.load', base, partial as StageOptions)).rejects.toThrow(
        /stage options: .*height must be an integer in \[1, 8192\], got nothing/,
      );
      const both = { ...toStageOptions(opts({ winterMode: true })), springMode: true };
      await expect(callStage(page, 'renderStage.load', base, both)).rejects.toThrow(
        /winterMode and springMode are mutually exclusive/,
      );
      const grid = toStageOptions(opts({ showGrid: true }));
      await expect(
        callStage(page, 'renderStage.load', base, { ...grid, gridSettings: { ...grid.gridSettings, color: 'red' } }),
      ).rejects.toThrow(/gridSettings.color/);
      // what Node sends loads
      await expect(callStage(page, 'renderStage.load', base, grid)).resolves.toMatchObject({ heroFrame: 0 });
      await callStage(page, 'renderStage.dispose');
    });
  });
});
