/**
 * `npm run bench:render`: render throughput on this machine, per case:
 *   pure  - the page's render loop alone (no capture), ms/frame
 *   full  - the production pipeline (render, capture, stream-encode), ms/frame and wall
 *   naive - a reference: SwiftShader, page.screenshot per frame, encoded afterwards
 * and the ratios full/pure (target <= 1.15) and naive/full (target >= 3).
 * Flags: --naive-frames N (frames sampled for the slow naive reference, default 24; 0 skips),
 *        --only NAME (one case), --json.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { StageBuild } from '../farm/src/contract.js';
import { BrowserPool } from '../src/render/browser-pool.js';
import { resolveRenderOptions, type RenderOptions, type ResolvedRenderOptions } from '../src/render/options.js';
import { renderBuild } from '../src/render/renderer.js';
import { farmStageBundle } from '../src/render/stage-bundle.js';
import { findChromium, findFfmpeg } from '../src/render/tool-paths.js';
import { demoStageBuild } from '../test/render/helpers/demo-build.js';
import { HAS_FARM } from '../test/render/helpers/stage.js';
import { buildStandInBundle } from '../test/render/fixtures/stand-in-bundle.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const naiveFrames = Number(flag('--naive-frames') ?? 24);
const only = flag('--only');

const CASES: Array<{ name: string; options: RenderOptions }> = [
  { name: 'sprite-512-cinematic', options: { format: 'sprite', profile: 'cinematic' } },
  { name: 'video-720p-cinematic', options: { format: 'video', profile: 'cinematic' } },
  { name: 'video-1080p-cinematic', options: { format: 'video', width: 1920, height: 1080, profile: 'cinematic' } },
  { name: 'video-720p-fast', options: { format: 'video', profile: 'fast' } },
];

const run = promisify(execFile);
const stage = HAS_FARM ? farmStageBundle : buildStandInBundle;
const chromiumPath = (await findChromium({})).path;
const ffmpegPath = (await findFfmpeg({})).path;
const build: StageBuild = demoStageBuild('DEMO-GLASS');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-render-'));

async function pureLoop(pool: BrowserPool, o: ResolvedRenderOptions): Promise<number> {
  return pool.use(async ({ page }) => {
    await page.evaluate(`window.renderStage.load(${JSON.stringify(build)}, ${JSON.stringify({ ...o, transparent: false })})`);
    await page.evaluate('window.renderStage.renderFrame(0)');
    const ms = (await page.evaluate(`(() => {
      const c = window.renderStage.canvas();
      const gl = c.getContext('webgl2') || c.getContext('webgl');
      const t0 = performance.now();
      for (let i = 0; i < ${o.frames}; i++) window.renderStage.renderFrame(i);
      // one pixel read waits for the GPU (llvmpipe) to finish every queued frame
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
      return performance.now() - t0;
    })()`)) as number;
    await page.evaluate('window.renderStage.dispose()');
    return ms / o.frames;
  });
}

async function naive(pool: BrowserPool, o: ResolvedRenderOptions, frames: number): Promise<number> {
  const dir = await mkdtemp(path.join(tmp, 'naive-'));
  const started = performance.now();
  await pool.use(async ({ page }) => {
    await page.setViewport({ width: o.width, height: o.height });
    await page.evaluate(`window.renderStage.load(${JSON.stringify(build)}, ${JSON.stringify(o)})`);
    for (let i = 0; i < frames; i++) {
      await page.evaluate(`window.renderStage.renderFrame(${i})`);
      const png = await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: o.width, height: o.height } });
      await writeFile(path.join(dir, `f${String(i).padStart(4, '0')}.png`), png);
    }
  });
  if (o.format === 'video') {
    await run(ffmpegPath, ['-y', '-loglevel', 'error', '-framerate', '30', '-i', path.join(dir, 'f%04d.png'), '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', path.join(dir, 'out.mp4')]);
  } else {
    const cols = Math.min(12, frames);
    const composites = Array.from({ length: frames }, (_, i) => ({ input: path.join(dir, `f${String(i).padStart(4, '0')}.png`), left: (i % cols) * o.width, top: Math.floor(i / cols) * o.height }));
    await sharp({ create: { width: cols * o.width, height: Math.ceil(frames / cols) * o.height, channels: 3, background: '#000' } }).composite(composites).webp({ quality: 90 }).toFile(path.join(dir, 'out.webp'));
  }
  await rm(dir, { recursive: true, force: true });
  return (performance.now() - started) / frames;
}

const fast = new BrowserPool({ chromiumPath, glBackend: 'auto', stage, noSandbox: true });
const coldStart = performance.now();
const info = await fast.info();
const cold = performance.now() - coldStart;
const rows: Record<string, unknown>[] = [];
console.log(`stage: ${HAS_FARM ? 'farm' : 'STAND-IN (farm/build.ts missing)'}; WebGL ${info.backend}: ${info.gl.renderer}; cold start ${(cold / 1000).toFixed(1)} s; build DEMO-GLASS`);
for (const c of CASES.filter((x) => !only || x.name === only)) {
  const o = resolveRenderOptions(c.options);
  const pure = await pureLoop(fast, o);
  const r = await renderBuild({ pool: fast, ffmpegPath, build, options: o, outDir: path.join(tmp, c.name), outputs: { [o.format]: true } });
  const full = (r.timings.render + r.timings.encode) / r.frames;
  rows.push({ case: c.name, size: `${o.width}x${o.height}`, frames: o.frames, pure_ms: +pure.toFixed(1), full_ms: +full.toFixed(1), full_over_pure: +(full / pure).toFixed(2), wall_s: +(r.timings.total / 1000).toFixed(1), load_ms: r.timings.load, encode_tail_ms: r.timings.encode, mb: +(r.files[0]!.bytes / 1e6).toFixed(2) });
  console.log(JSON.stringify(rows.at(-1)));
}
await fast.close();
if (naiveFrames > 0) {
  const slow = new BrowserPool({ chromiumPath, glBackend: 'swiftshader', stage, noSandbox: true });
  for (const row of rows) {
    const c = CASES.find((x) => x.name === row.case)!;
    const o = resolveRenderOptions(c.options);
    const n = await naive(slow, o, Math.min(naiveFrames, o.frames));
    row.naive_ms = +n.toFixed(1);
    row.naive_over_full = +(n / (row.full_ms as number)).toFixed(2);
    console.log(JSON.stringify({ case: row.case, naive_ms: row.naive_ms, naive_over_full: row.naive_over_full, naive_frames: Math.min(naiveFrames, o.frames) }));
  }
  await slow.close();
}
await rm(tmp, { recursive: true, force: true });
if (args.includes('--json')) console.log(JSON.stringify(rows, null, 2));
else console.table(rows);
