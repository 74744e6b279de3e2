/**
 * `npm run bench:render`: render throughput on this machine against the real farm stage and
 * the DEMO-GLASS demo build, per case:
 *   pure  - the page's render loop alone: the same frames, same profile and size, no capture;
 *           ends with a 1-pixel readPixels so the GPU (llvmpipe) has really drawn every frame
 *   full  - the production pipeline (renderBuild: render, capture, encode, files), ms/frame
 *           over render + encode tail (load excluded, as for pure), and wall incl. load
 *   naive - a reference: SwiftShader, page.screenshot per frame, encoded afterwards
 * and the ratios full/pure (target <= 1.15) and naive/full (target >= 3). CPU columns are
 * CPU-ms per frame of every process involved (Chromium, ffmpeg, Node; the full one less the
 * CPU of a stage load): on a shared machine they move less with other people's load than
 * wall times do.
 * Flags: --quick (24 frames a case, 6 naive frames), --naive-frames N (default 24; 0 skips),
 *        --only NAME[,NAME] (cases), --x264 (force the x264 video path), --repeat N (best of N), --json.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { demoStageBuild } from '../src/catalog/demo-catalog.js';
import { loadConfig } from '../src/config.js';
import type { StageBuild } from '../src/model/stage-contract.js';
import { resolveRenderOptions, type RenderOptions, type ResolvedRenderOptions } from '../src/model/render-options.js';
import type { BrowserPool } from '../src/render/browser-pool.js';
import { createRenderEngine } from '../src/render/engine.js';
import type { RenderResult } from '../src/render/renderer.js';
import { findFfmpeg } from '../src/render/tool-paths.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const naiveFrames = Number(flag('--naive-frames') ?? (quick ? 6 : 24));
const only = flag('--only')?.split(',');
const repeat = Math.max(1, Number(flag('--repeat') ?? 1));
const frameLimit = quick ? 24 : undefined;

const CASES: Array<{ name: string; options: RenderOptions }> = [
  { name: 'sprite-512-cinematic', options: { format: 'sprite', profile: 'cinematic' } },
  { name: 'video-720p-cinematic', options: { format: 'video', profile: 'cinematic' } },
  { name: 'video-1080p-cinematic', options: { format: 'video', width: 1920, height: 1080, profile: 'cinematic' } },
  { name: 'sprite-512-fast', options: { format: 'sprite', profile: 'fast' } },
  { name: 'video-720p-fast', options: { format: 'video', profile: 'fast' } },
];

const run = promisify(execFile);
// the production engine and configuration (CHROMIUM_PATH, RENDER_FARM_GL, ...)
const cfg = loadConfig();
const ffmpegPath = (await findFfmpeg(cfg, cfg.searchPath)).path;
const build: StageBuild = demoStageBuild('DEMO-GLASS');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-render-'));

/** CPU milliseconds used so far by this process and all its descendants (Linux /proc; 0 elsewhere). */
function treeCpuMs(): number {
  try {
    const parent = new Map<number, number>();
    const cpu = new Map<number, number>();
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const s = readFileSync(`/proc/${d}/stat`, 'utf8');
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
        parent.set(+d, +f[1]!);
        cpu.set(+d, ((+f[11]! + +f[12]!) * 1000) / 100); // utime + stime, in USER_HZ (100)
      } catch {
        // the process ended meanwhile
      }
    }
    let total = 0;
    for (const [pid, ms] of cpu) {
      for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
        if (p === process.pid) {
          total += ms;
          break;
        }
      }
    }
    return total;
  } catch {
    return 0;
  }
}

/** Runs fn, returning its result, wall ms and CPU ms (whole process tree). */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const c0 = treeCpuMs();
  const t0 = performance.now();
  const value = await fn();
  return { value, wall: performance.now() - t0, cpu: treeCpuMs() - c0 };
}

/** The pure render loop: `frames` frames back to back in one page task, then a 1-pixel read. */
async function pureLoop(pool: BrowserPool, o: ResolvedRenderOptions, frames: number): Promise<{ ms: number; cpu: number; loadCpu: number }> {
  return pool.use(async ({ page }) => {
    // the stage load's CPU, to take out of the full pipeline's CPU (its time is excluded too)
    const loading = await measured(() => page.evaluate(`window.renderStage.load(${JSON.stringify(build)}, ${JSON.stringify({ ...o, transparent: false })})`));
    // warm-up frame, finished, so neither shader compiles nor load leftovers are counted
    await page.evaluate(`(() => {
      window.renderStage.renderFrame(0);
      const c = window.renderStage.canvas(), gl = c.getContext('webgl2') || c.getContext('webgl');
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    })()`);
    const m = await measured(
      async () =>
        (await page.evaluate(`(() => {
          const c = window.renderStage.canvas(), gl = c.getContext('webgl2') || c.getContext('webgl');
          const t0 = performance.now();
          for (let i = 0; i < ${frames}; i++) window.renderStage.renderFrame(i);
          // one pixel read waits for the GPU (llvmpipe) to finish every queued frame
          gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
          return performance.now() - t0;
        })()`)) as number,
    );
    await page.evaluate('window.renderStage.dispose()');
    return { ms: m.value / frames, cpu: m.cpu / frames, loadCpu: loading.cpu };
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

const engine = await createRenderEngine(cfg);
const fast = engine.pool;
const coldStart = performance.now();
const info = await fast.info();
const cold = performance.now() - coldStart;
const rows: Record<string, unknown>[] = [];
const load = () => os.loadavg()[0]!.toFixed(2);
console.log(
  `stage: farm; WebGL ${info.backend}: ${info.gl.renderer}; cold start ${(cold / 1000).toFixed(1)} s; build DEMO-GLASS; ${os.cpus().length} CPUs; load ${load()}${quick ? '; QUICK (24 frames a case)' : ''}`,
);
for (const c of CASES.filter((x) => !only || only.includes(x.name))) {
  const o = resolveRenderOptions(c.options);
  const frames = Math.min(o.frames, frameLimit ?? o.frames);
  const loadAtStart = load();
  let pure = { ms: Infinity, cpu: Infinity, loadCpu: 0 };
  let best: { r: RenderResult; cpu: number; full: number } | null = null;
  for (let k = 0; k < repeat; k++) {
    const p = await pureLoop(fast, o, frames);
    if (p.ms < pure.ms) pure = p;
    const m = await measured(() =>
      engine.render({ build, options: o, outDir: path.join(tmp, c.name), outputs: { [o.format]: true }, frameLimit, videoEncoder: args.includes('--x264') ? 'x264' : 'auto' }),
    );
    const full = (m.value.timings.render + m.value.timings.encode) / m.value.frames;
    if (!best || full < best.full) best = { r: m.value, cpu: Math.max(0, m.cpu - p.loadCpu) / m.value.frames, full };
  }
  const { r, full } = best!;
  rows.push({
    case: c.name,
    size: `${o.width}x${o.height}`,
    frames,
    path: r.videoPath ?? 'raw',
    pure_ms: +pure.ms.toFixed(1),
    full_ms: +full.toFixed(1),
    full_over_pure: +(full / pure.ms).toFixed(2),
    wall_s: +(r.timings.total / 1000).toFixed(1),
    load_ms: r.timings.load,
    tail_ms: r.timings.encode,
    cpu_pure: Math.round(pure.cpu),
    cpu_full: Math.round(best!.cpu),
    mb: +(r.files[0]!.bytes / 1e6).toFixed(2),
    load: loadAtStart,
  });
  console.log(JSON.stringify(rows.at(-1)));
}
await engine.close();
if (naiveFrames > 0) {
  // the reference: the same engine forced onto SwiftShader
  const slowEngine = await createRenderEngine({ ...cfg, glBackend: 'swiftshader' });
  const slow = slowEngine.pool;
  for (const row of rows) {
    const c = CASES.find((x) => x.name === row.case)!;
    const o = resolveRenderOptions(c.options);
    const n = await naive(slow, o, Math.min(naiveFrames, o.frames));
    row.naive_ms = +n.toFixed(1);
    row.naive_over_full = +(n / (row.full_ms as number)).toFixed(2);
    console.log(JSON.stringify({ case: row.case, naive_ms: row.naive_ms, naive_over_full: row.naive_over_full, naive_frames: Math.min(naiveFrames, o.frames) }));
  }
  await slowEngine.close();
}
await rm(tmp, { recursive: true, force: true });
console.log(`load at end ${load()}`);
if (args.includes('--json')) console.log(JSON.stringify(rows, null, 2));
else console.table(rows);
