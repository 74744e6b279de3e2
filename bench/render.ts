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
 * Per case it also prints what each pass of the frame costs on this tree's stage (passCosts:
 * shadow map, floor mirror, bloom, FXAA, and the main pass as the rest), wall and CPU ms.
 * Flags: --quick (24 frames a case, 6 naive frames), --naive-frames N (default 24; 0 skips),
 *        --no-passes (skip the per-pass costs),
 *        --only NAME[,NAME] (cases; the large sprites sprite-1365-standard-fast and
 *        sprite-1365-high-fast run only when named here: their tail_ms is the 16380x8190 and
 *        16380x16380 sheet encode of a real render), --x264 (force the x264 video path),
 *        --repeat N (best of N), --json.
 * --sheets: only the sheet encode at the largest sizes on high-entropy (noise) sheets, the
 *        worst case for libwebp: each fallback step tried (src/encode/sprite-sheet.ts) and its time.
 *
 * --baseline <git-ref>: also builds the stage of another commit (a temporary `git worktree`
 * sharing this checkout's node_modules) and times both stages on the same frames in the
 * same run, interleaved (each repeat times old then new, or new then old, alternating; best
 * of --repeat, default 2), printing old and new ms/frame and new/old per case: the only fair
 * comparison on a shared machine. Naive is skipped unless --naive-frames is given.
 *
 * --models: part models (docs/part-models.md) against the procedural build, same run, interleaved as for
 * --baseline: DEMO-GLASS with its case, GPU, cooler and board given ~50k-triangle GLBs with a
 * 1024 px texture each (the example models of src/part-models/example-models.ts, prepared as
 * `models add` does), served to the page as a worker would. Also prints the stage load with
 * models (cold: fetched and parsed; warm: from the page's library) against the procedural load,
 * and the Chromium tree's RSS while 32 distinct models pass through one page (the library keeps 16).
 */
import { execFile } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { chromiumRssMb, measured } from './proc-cpu.js';
import { pureLoop, timeFrames } from './frame-timing.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { STAGE_PASSES, type StageBuild, type StagePass } from '../src/model/stage-contract.js';
import type { BrowserPool } from '../src/render/browser-pool.js';
import { loadConfig } from '../src/config.js';
import { createRenderEngine } from '../src/render/engine.js';
import { resolveRenderOptions, type RenderOptions, type ResolvedRenderOptions } from '../src/model/render-options.js';
import { renderBuild, type RenderResult } from '../src/render/render-build.js';
import { findFfmpeg } from '../src/render/tool-paths.js';
import { DEMO_PARTS, demoStageBuild } from '../src/catalog/demo-catalog.js';
import type { Category } from '../src/model/part.js';
import { exampleModel } from '../src/part-models/example-models.js';
import { modelInputFromBytes } from '../src/part-models/model-input.js';
import { modelLimitsFrom } from '../src/part-models/model-limits.js';
import { prepareModel } from '../src/part-models/prepare-model.js';
import { withOverrides } from '../src/render/model-source.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const baselineRef = flag('--baseline');
const naiveFrames = Number(flag('--naive-frames') ?? (baselineRef ? 0 : quick ? 6 : 24));
const only = flag('--only')?.split(',');
const repeat = Math.max(1, Number(flag('--repeat') ?? (baselineRef ? 2 : 1)));
const frameLimit = quick ? 24 : undefined;
const modelsRun = args.includes('--models');
/** --model-triangles N: triangles of each of the four models (default 50000) */
const modelTriangles = Number(flag('--model-triangles') ?? 50_000);

const CASES: Array<{ name: string; options: RenderOptions }> = [
  { name: 'sprite-512-cinematic', options: { format: 'sprite', profile: 'cinematic' } },
  { name: 'video-720p-cinematic', options: { format: 'video', profile: 'cinematic' } },
  { name: 'video-1080p-cinematic', options: { format: 'video', width: 1920, height: 1080, profile: 'cinematic' } },
  { name: 'sprite-512-fast', options: { format: 'sprite', profile: 'fast' } },
  { name: 'video-720p-fast', options: { format: 'video', profile: 'fast' } },
];
/** Minutes each: run only when --only names them. */
const LARGE_CASES: Array<{ name: string; options: RenderOptions }> = [
  {
    name: 'sprite-1365-standard-fast',
    options: { format: 'sprite', width: 1365, height: 1365, profile: 'fast', frameQuality: 'standard' },
  },
  {
    name: 'sprite-1365-high-fast',
    options: { format: 'sprite', width: 1365, height: 1365, profile: 'fast', frameQuality: 'high' },
  },
];
const caseByName = (name: string) => [...CASES, ...LARGE_CASES].find((x) => x.name === name)!;

if (args.includes('--sheets')) {
  // the encode alone, on noise: no browser needed
  const { SpriteSheetWriter, stepName } = await import('../src/encode/sprite-sheet.js');
  const { spriteLayout } = await import('../src/model/sprite-layout.js');
  const { randomFillSync } = await import('node:crypto');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-sheets-'));
  for (const q of ['standard', 'high'] as const) {
    const layout = spriteLayout(1365, 1365, q);
    const sheet = new SpriteSheetWriter(layout);
    const row = new Uint8Array(layout.columns * layout.frame_width * layout.frame_height * 4);
    for (let r = 0; r < layout.rows; r++) sheet.addRow(r, randomFillSync(row));
    const used = await sheet.writeWebp(path.join(dir, `${q}.webp`));
    const size = `${layout.columns * layout.frame_width}x${layout.rows * layout.frame_height}`;
    console.log(
      JSON.stringify({
        sheet: `noise-1365-${q}`,
        size,
        used: stepName(used),
        mb: +(used.bytes / 1e6).toFixed(1),
        total_ms: used.tries.reduce((n, t) => n + t.ms, 0),
        tries: used.tries,
      }),
    );
    await rm(path.join(dir, `${q}.webp`));
  }
  await rm(dir, { recursive: true, force: true });
  process.exit(0);
}

const run = promisify(execFile);
// the project's engine and GL policy (one per stage or backend compared)
const cfg = loadConfig();
const ffmpegPath = (await findFfmpeg({})).path;
const demo: StageBuild = demoStageBuild('DEMO-GLASS');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-render-'));

/**
 * What each pass of a frame costs on the new stage: the frames timed whole, then with one pass
 * left out at a time (renderStage.renderFrame's skip), rounds alternating; a pass's cost is the
 * whole frame less the frame without it (wall and CPU ms per frame, best of the rounds), and
 * "main" is what is left: the scene drawn once, its shadow lookups and the sky.
 */
async function passCosts(
  pool: BrowserPool,
  o: ResolvedRenderOptions,
  frames: number,
  build: StageBuild,
  rounds = 2,
): Promise<Record<string, { ms: number; cpu: number }>> {
  return pool.use(async ({ page }) => {
    await page.evaluate(
      `window.renderStage.load(${JSON.stringify(build)}, ${JSON.stringify({ ...o, transparent: false })})`,
    );
    const variants: Array<StagePass | 'none'> = ['none', ...STAGE_PASSES];
    const best = new Map<string, { ms: number; cpu: number }>();
    for (let k = 0; k < rounds; k++) {
      for (const v of k % 2 ? [...variants].reverse() : variants) {
        const got = await timeFrames(page, frames, v === 'none' ? [] : [v]);
        const was = best.get(v);
        best.set(v, { ms: Math.min(was?.ms ?? Infinity, got.ms), cpu: Math.min(was?.cpu ?? Infinity, got.cpu) });
      }
    }
    await page.evaluate('window.renderStage.dispose()');
    const whole = best.get('none')!;
    const out: Record<string, { ms: number; cpu: number }> = {};
    let ms = whole.ms;
    let cpu = whole.cpu;
    for (const p of STAGE_PASSES) {
      const without = best.get(p)!;
      out[p] = { ms: Math.max(0, whole.ms - without.ms), cpu: Math.max(0, whole.cpu - without.cpu) };
      ms -= out[p].ms;
      cpu -= out[p].cpu;
    }
    out.main = { ms, cpu };
    out.frame = whole;
    return out;
  });
}

async function naive(pool: BrowserPool, o: ResolvedRenderOptions, frames: number): Promise<number> {
  const dir = await mkdtemp(path.join(tmp, 'naive-'));
  const started = performance.now();
  await pool.use(async ({ page }) => {
    await page.setViewport({ width: o.width, height: o.height });
    await page.evaluate(`window.renderStage.load(${JSON.stringify(demo)}, ${JSON.stringify(o)})`);
    for (let i = 0; i < frames; i++) {
      await page.evaluate(`window.renderStage.renderFrame(${i})`);
      const png = await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: o.width, height: o.height } });
      await writeFile(path.join(dir, `f${String(i).padStart(4, '0')}.png`), png);
    }
  });
  if (o.format === 'video') {
    await run(ffmpegPath, [
      '-y',
      '-loglevel',
      'error',
      '-framerate',
      '30',
      '-i',
      path.join(dir, 'f%04d.png'),
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      path.join(dir, 'out.mp4'),
    ]);
  } else {
    const cols = Math.min(12, frames);
    const composites = Array.from({ length: frames }, (_, i) => ({
      input: path.join(dir, `f${String(i).padStart(4, '0')}.png`),
      left: (i % cols) * o.width,
      top: Math.floor(i / cols) * o.height,
    }));
    await sharp({
      create: { width: cols * o.width, height: Math.ceil(frames / cols) * o.height, channels: 3, background: '#000' },
    })
      .composite(composites)
      .webp({ quality: 90 })
      .toFile(path.join(dir, 'out.webp'));
  }
  await rm(dir, { recursive: true, force: true });
  return (performance.now() - started) / frames;
}

/**
 * The stage of another commit: a detached temporary worktree at `ref` that borrows this
 * checkout's node_modules, bundled by that commit's own farm/build.ts.
 */
async function baselineStage(
  ref: string,
): Promise<{ bundle: () => Promise<{ html: string; js: string }>; commit: string; cleanup: () => Promise<void> }> {
  const root = (await run('git', ['rev-parse', '--show-toplevel'])).stdout.trim();
  const commit = (await run('git', ['rev-parse', '--short', `${ref}^{commit}`], { cwd: root })).stdout.trim();
  const wt = path.join(tmp, `baseline-${commit}`);
  await run('git', ['worktree', 'add', '--detach', wt, commit], { cwd: root });
  const cleanup = async () => {
    await run('git', ['worktree', 'remove', '--force', wt], { cwd: root }).catch(() => {});
  };
  try {
    symlinkSync(path.join(root, 'node_modules'), path.join(wt, 'node_modules'), 'dir');
    const mod = (await import(pathToFileURL(path.join(wt, 'farm', 'build.ts')).href)) as {
      buildStageBundle: () => Promise<{ html: string; js: string }>;
    };
    const built = await mod.buildStageBundle();
    return { bundle: async () => built, commit, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

interface CaseResult {
  pure: { ms: number; cpu: number; loadCpu: number; byKind: Record<string, number> };
  full: number;
  cpuFull: number;
  /** CPU ms per frame of the full pipeline by process kind (the stage load not taken out) */
  fullByKind: Record<string, number>;
  r: RenderResult;
  triangles: number;
}

/** One timing of a case on one stage: the pure loop, then the full pipeline. */
async function timeCase(
  pool: BrowserPool,
  name: string,
  o: ResolvedRenderOptions,
  frames: number,
  build: StageBuild,
): Promise<CaseResult> {
  const pure = await pureLoop(pool, o, frames, build);
  const m = await measured(() =>
    renderBuild({
      pool,
      ffmpegPath,
      build,
      options: o,
      outDir: path.join(tmp, name),
      outputs: { [o.format]: true },
      frameLimit,
      videoEncoder: args.includes('--x264') ? 'x264' : 'auto',
    }),
  );
  const full = (m.value.timings.render + m.value.timings.encode) / m.value.frames;
  const perFrame = (k: Record<string, number>) =>
    Object.fromEntries(Object.entries(k).map(([kind, ms]) => [kind, ms / m.value.frames]));
  return {
    pure,
    full,
    cpuFull: Math.max(0, m.cpu - pure.loadCpu) / m.value.frames,
    fullByKind: perFrame(m.byKind),
    r: m.value,
    triangles: pure.triangles,
  };
}

interface BenchModels {
  pool: BrowserPool;
  build: StageBuild;
  triangles: number[];
  /** prepared GLBs of 32 distinct GPU variants, for the memory probe */
  variants: Uint8Array[];
}

/** The prepared models of DEMO-GLASS's case, GPU, cooler and board (~50k triangles, 1024 px texture each) and a pool serving them. */
async function benchModels(): Promise<BenchModels> {
  const limits = modelLimitsFrom(cfg);
  const t0 = performance.now();
  const glbs: Uint8Array[] = [];
  const ids: string[] = [];
  const triangles: number[] = [];
  for (const category of ['PCCase', 'GPU', 'CPUCooler', 'Motherboard'] as Category[]) {
    const part = demo.parts[category]![0]!;
    const raw = await (await exampleModel(part, { triangles: modelTriangles, texturePx: 1024 })).glb();
    const prepared = await prepareModel(modelInputFromBytes(`${category}.glb`, raw), part, { limits });
    glbs.push(prepared.glb);
    ids.push(part.id);
    triangles.push(prepared.triangles);
  }
  // distinct bytes per variant: GPUs of other lengths (every OpenDB length is a real card's)
  const gpu = DEMO_PARTS.find((p) => p.id === demo.parts.GPU![0]!.id)!;
  const variants: Uint8Array[] = [];
  for (let i = 0; i < 32; i++) {
    const part = { ...gpu, specs: { ...(gpu.specs as object), lengthMm: 240 + i * 3 } };
    const raw = await (await exampleModel(part, { triangles: 50_000, texturePx: 1024 })).glb();
    variants.push((await prepareModel(modelInputFromBytes(`gpu-${i}.glb`, raw), part, { limits })).glb);
  }
  const served = withOverrides(null, [...glbs, ...variants]);
  const build: StageBuild = { ...demo, models: Object.fromEntries(ids.map((id, i) => [id, served.shas[i]!])) };
  console.log(
    `models: ${triangles.join(', ')} triangles (case, GPU, cooler, board) and 32 GPU variants prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return { pool: (await createRenderEngine(cfg, { models: served.source })).pool, build, triangles, variants };
}

/**
 * Load times (procedural, with models cold and warm) and the Chromium tree's memory while 32
 * distinct ~50k-triangle models pass through one page.
 */
async function modelProbes(m: BenchModels): Promise<void> {
  const o = resolveRenderOptions({ format: 'video', profile: 'cinematic' });
  const options = { ...o, transparent: false };
  const timeLoad = (pool: BrowserPool, b: StageBuild) =>
    pool.use(async ({ page }) => {
      const t = await measured(async () =>
        page.evaluate(`window.renderStage.load(${JSON.stringify(b)}, ${JSON.stringify(options)})`),
      );
      await page.evaluate('window.renderStage.dispose()');
      return t.wall;
    });
  // a fresh page library: a build whose models the page has not parsed yet (variant shas)
  const gpuId = demo.parts.GPU![0]!.id;
  const served = withOverrides(null, m.variants);
  const coldBuild = (i: number): StageBuild => ({ ...demo, models: { [gpuId]: served.shas[i]! } });
  const procedural = await timeLoad(fast, demo);
  const warm = await timeLoad(m.pool, m.build);
  const again = await timeLoad(m.pool, m.build);
  const memPool = (await createRenderEngine(cfg, { models: served.source })).pool;
  try {
    const cold = await timeLoad(memPool, coldBuild(0));
    const warmOne = await timeLoad(memPool, coldBuild(0));
    console.log(
      JSON.stringify({
        probe: 'stage load 720p cinematic',
        procedural_ms: Math.round(procedural),
        one_50k_gpu_model_cold_ms: Math.round(cold),
        same_warm_ms: Math.round(warmOne),
        four_models_warm_ms: Math.round(Math.min(warm, again)),
        cold_extra_ms: Math.round(cold - procedural),
      }),
    );
    const mem: Record<string, number> = { before: Math.round(chromiumRssMb()) };
    for (let i = 1; i < 32; i++) {
      await timeLoad(memPool, coldBuild(i));
      if ((i + 1) % 8 === 0) mem[`after_${i + 1}_models`] = Math.round(chromiumRssMb());
    }
    console.log(
      JSON.stringify({
        probe: 'Chromium RSS MB (all of this run), 32 distinct GPU models through one page, library keeps 16',
        ...mem,
      }),
    );
  } finally {
    await memPool.close();
  }
}

/** "gpu-process 150->170 renderer 2->14 ...": CPU ms per frame by process kind, pure -> full. */
function byProcess(pure: Record<string, number>, full: Record<string, number>): string {
  const keys = [...new Set([...Object.keys(pure), ...Object.keys(full)])].filter(
    (k) => Math.max(pure[k] ?? 0, full[k] ?? 0) >= 0.5,
  );
  keys.sort((a, b) => (full[b] ?? 0) - (full[a] ?? 0));
  return keys.map((k) => `${k} ${Math.round(pure[k] ?? 0)}->${Math.round(full[k] ?? 0)}`).join(' ');
}

const better = (a: CaseResult | null, b: CaseResult): CaseResult =>
  !a ? b : { ...(b.full < a.full ? b : a), pure: b.pure.ms < a.pure.ms ? b.pure : a.pure };

const fast = (await createRenderEngine(cfg)).pool;
const baseline = baselineRef ? await baselineStage(baselineRef) : null;
if (baseline && modelsRun) throw new Error('--models and --baseline: one comparison at a time');
const models = modelsRun ? await benchModels() : null;
// an interrupted run still removes its temporary worktree
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void (baseline?.cleanup() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}
const old = baseline ? (await createRenderEngine(cfg, { stage: baseline.bundle })).pool : models ? models.pool : null;
const coldStart = performance.now();
const info = await fast.info();
const cold = performance.now() - coldStart;
if (old) await old.info();
const rows: Record<string, unknown>[] = [];
/** per case: each pass's wall ms / CPU ms per frame (passCosts) */
const passRows: Record<string, unknown>[] = [];
const load = () => os.loadavg()[0]!.toFixed(2);
console.log(
  `stage: farm${baseline ? ` vs baseline ${baseline.commit} (${baselineRef})` : ''}; WebGL ${info.backend}: ${info.gl.renderer}; cold start ${(cold / 1000).toFixed(1)} s; build DEMO-GLASS; ${os.cpus().length} CPUs; load ${load()}${quick ? '; QUICK (24 frames a case)' : ''}`,
);
try {
  for (const c of only ? [...CASES, ...LARGE_CASES].filter((x) => only.includes(x.name)) : CASES) {
    const o = resolveRenderOptions(c.options);
    const frames = Math.min(o.frames, frameLimit ?? o.frames);
    const loadAtStart = load();
    let now: CaseResult | null = null;
    let then: CaseResult | null = null;
    for (let k = 0; k < repeat; k++) {
      // interleaved, in alternating order, so both stages see the same machine load
      const oldFirst = k % 2 === 0;
      // --models: "new" is the build with models, "old" the procedural one, both on this stage
      const nowRun = () =>
        models
          ? timeCase(models.pool, `${c.name}-models`, o, frames, models.build)
          : timeCase(fast, c.name, o, frames, demo);
      const thenRun = () =>
        models ? timeCase(fast, c.name, o, frames, demo) : timeCase(old!, `${c.name}-old`, o, frames, demo);
      if (old && oldFirst) then = better(then, await thenRun());
      now = better(now, await nowRun());
      if (old && !oldFirst) then = better(then, await thenRun());
    }
    const { r, full, pure } = now!;
    const row: Record<string, unknown> = {
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
      cpu_full: Math.round(now!.cpuFull),
      cpu_full_over_pure: +(now!.cpuFull / pure.cpu).toFixed(2),
      // where the CPU goes, ms per frame by process (pure loop -> full pipeline; the full one
      // includes the stage load, ~load CPU / frames)
      cpu_by_process: byProcess(pure.byKind, now!.fullByKind),
      mb: +(r.files[0]!.bytes / 1e6).toFixed(2),
      triangles: now!.triangles,
      load: loadAtStart,
    };
    if (then) {
      Object.assign(row, {
        old_pure_ms: +then.pure.ms.toFixed(1),
        old_full_ms: +then.full.toFixed(1),
        old_wall_s: +(then.r.timings.total / 1000).toFixed(1),
        old_triangles: then.triangles,
        pure_new_over_old: +(pure.ms / then.pure.ms).toFixed(2),
        full_new_over_old: +(full / then.full).toFixed(2),
        old_cpu_pure: Math.round(then.pure.cpu),
        cpu_new_over_old: +(pure.cpu / then.pure.cpu).toFixed(2),
      });
    }
    rows.push(row);
    console.log(JSON.stringify(row));
    if (!models && !args.includes('--no-passes')) {
      // 48 frames a variant, best of 3 rounds: the differences are a few ms in ~100-300
      const p = await passCosts(fast, o, Math.min(frames, 48), demo, 3);
      const fmt = (x: { ms: number; cpu: number }) => `${x.ms.toFixed(1)}/${Math.round(x.cpu)}`;
      passRows.push({ case: c.name, ...Object.fromEntries(Object.entries(p).map(([k, v]) => [k, fmt(v)])) });
      console.log(
        JSON.stringify({
          case: c.name,
          passes_ms_cpu: Object.fromEntries(
            Object.entries(p).map(([k, v]) => [k, { ms: +v.ms.toFixed(1), cpu: Math.round(v.cpu) }]),
          ),
        }),
      );
    }
  }
} finally {
  if (models) await modelProbes(models);
  await fast.close();
  await old?.close();
  await baseline?.cleanup();
}
if (naiveFrames > 0) {
  const slow = (await createRenderEngine(loadConfig({ glBackend: 'swiftshader' }))).pool;
  for (const row of rows) {
    const c = caseByName(row.case as string);
    const o = resolveRenderOptions(c.options);
    const n = await naive(slow, o, Math.min(naiveFrames, o.frames));
    row.naive_ms = +n.toFixed(1);
    row.naive_over_full = +(n / (row.full_ms as number)).toFixed(2);
    console.log(
      JSON.stringify({
        case: row.case,
        naive_ms: row.naive_ms,
        naive_over_full: row.naive_over_full,
        naive_frames: Math.min(naiveFrames, o.frames),
      }),
    );
  }
  await slow.close();
}
await rm(tmp, { recursive: true, force: true });
console.log(`load at end ${load()}`);
if (args.includes('--json')) console.log(JSON.stringify(rows, null, 2));
else if (baseline || models) {
  console.log(
    models
      ? `\nnew = DEMO-GLASS with 4 part models (case, GPU, cooler, board; ${models.triangles.join(', ')} triangles) vs old = procedural, same run, ms/frame (best of ${repeat}):`
      : `\nnew (this tree) vs old (${baseline!.commit}), same run, ms/frame (best of ${repeat}):`,
  );
  console.table(
    rows.map((r) => ({
      case: r.case,
      'old pure': r.old_pure_ms,
      'new pure': r.pure_ms,
      'pure new/old': r.pure_new_over_old,
      'old full': r.old_full_ms,
      'new full': r.full_ms,
      'full new/old': r.full_new_over_old,
      'cpu new/old': r.cpu_new_over_old,
      'old wall s': r.old_wall_s,
      'new wall s': r.wall_s,
      'old tris': r.old_triangles,
      'new tris': r.triangles,
    })),
  );
} else console.table(rows);
if (passRows.length > 0 && !args.includes('--json')) {
  console.log(
    '\nper pass, this tree: wall ms / CPU ms per frame (a pass = the frame less the frame without it; main = the rest)',
  );
  console.table(passRows);
}
