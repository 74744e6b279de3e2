/**
 * The page's render loop timed alone ("pure": no capture, no encode), as bench:render and the
 * GPU kit (bench/device/kit.ts) measure it: same frames, profile and size as a render.
 */
import type { Page } from 'puppeteer-core';
import type { StageBuild, StagePass } from '../src/model/stage-contract.js';
import type { ResolvedRenderOptions } from '../src/model/render-options.js';
import type { BrowserPool } from '../src/render/browser-pool.js';
import { measured } from './proc-cpu.js';

/**
 * `frames` frames back to back in one page task (leaving out `skip`'s passes), after a finished
 * warm-up frame so neither shader compiles nor load leftovers count, then a 1-pixel read that
 * waits for the GPU (llvmpipe) to finish every queued frame: wall ms per frame as the page saw
 * it, CPU ms per frame of every process, and by process kind.
 */
export async function timeFrames(
  page: Page,
  frames: number,
  skip: readonly StagePass[] = [],
): Promise<{ ms: number; cpu: number; byKind: Record<string, number> }> {
  const s = JSON.stringify(skip);
  await page.evaluate(`(() => {
    window.renderStage.renderFrame(0, ${s});
    const c = window.renderStage.canvas(), gl = c.getContext('webgl2') || c.getContext('webgl');
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  })()`);
  const m = await measured(
    async () =>
      (await page.evaluate(`(() => {
        const c = window.renderStage.canvas(), gl = c.getContext('webgl2') || c.getContext('webgl');
        const t0 = performance.now();
        for (let i = 0; i < ${frames}; i++) window.renderStage.renderFrame(i, ${s});
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
        return performance.now() - t0;
      })()`)) as number,
  );
  return {
    ms: m.value / frames,
    cpu: m.cpu / frames,
    byKind: Object.fromEntries(Object.entries(m.byKind).map(([k, ms]) => [k, ms / frames])),
  };
}

/** The pure render loop: `frames` frames back to back in one page task, then a 1-pixel read. */
export async function pureLoop(
  pool: BrowserPool,
  o: ResolvedRenderOptions,
  frames: number,
  build: StageBuild,
): Promise<{ ms: number; cpu: number; loadCpu: number; byKind: Record<string, number>; triangles: number }> {
  return pool.use(async ({ page }) => {
    // the stage load's CPU, to take out of the full pipeline's CPU (its time is excluded too)
    const loading = await measured(
      async () =>
        (await page.evaluate(
          `window.renderStage.load(${JSON.stringify(build)}, ${JSON.stringify({ ...o, transparent: false })})`,
        )) as { triangles: number },
    );
    const m = await timeFrames(page, frames);
    await page.evaluate('window.renderStage.dispose()');
    return { ...m, loadCpu: loading.cpu, triangles: loading.value.triangles };
  });
}
