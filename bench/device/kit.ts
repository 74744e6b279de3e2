/**
 * The GPU kit's program (bench/device/README.md): the product's own render engine, timed as bench:render
 * times it, on a machine that has no PostgreSQL, no npm and no network. kit-pack.sh bundles
 * this file with esbuild into one kit.mjs (sharp stays outside: native code) and carries a
 * prebuilt stage bundle (stage.json), so nothing here builds or opens a database: the build
 * is the DEMO-GLASS demo build, resolved in code.
 *
 *   node kit.mjs --chromium PATH --ffmpeg PATH --stage stage.json --out DIR
 *       [--gl auto|gpu|egl|swiftshader] [--cases a,b] [--frames N]
 *       [--video-frames pixels|canvas] [--concurrency 1,2,4] [--concurrency-case NAME]
 *       [--label NAME] [--keep]
 *
 * Prints one JSON line per measurement (the device script keeps them), and with --keep leaves
 * each case's output file in --out (the SSIM check against an llvmpipe render, kit-ssim.sh).
 * Per case: `pure` is the page's render loop alone, `full` the whole pipeline (render,
 * capture, encode, files), both ms per frame, and CPU ms per frame by process kind.
 * --concurrency: N engines (N browsers, as N single-render workers on one machine) each render
 * the concurrency case at once; frames/s of all of them together, and CPU cores in use.
 */
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { resolveRenderOptions, type RenderOptions } from '../../src/model/render-options.js';
import type { StageBuild } from '../../src/model/stage-contract.js';
import type { GlBackendName } from '../../src/render/chromium-args.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import type { StageBundle } from '../../src/render/stage-server.js';
import { pureLoop } from '../frame-timing.js';
import { measured } from '../proc-cpu.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const need = (name: string): string => {
  const v = flag(name);
  if (!v) {
    console.error(`kit: ${name} is required (see the header of bench/device/kit.ts)`);
    process.exit(2);
  }
  return v;
};

const CASES: Record<string, RenderOptions> = {
  'sprite-512-cinematic': { format: 'sprite', profile: 'cinematic' },
  'video-720p-cinematic': { format: 'video', profile: 'cinematic' },
  'video-1080p-cinematic': { format: 'video', width: 1920, height: 1080, profile: 'cinematic' },
  'video-720p-fast': { format: 'video', profile: 'fast' },
};

const gl = (flag('--gl') ?? 'auto') as 'auto' | GlBackendName;
const chromiumPath = path.resolve(need('--chromium'));
const ffmpegPath = path.resolve(need('--ffmpeg'));
const outDir = path.resolve(need('--out'));
const label = flag('--label') ?? gl;
const frameLimit = flag('--frames') ? Number(flag('--frames')) : undefined;
const videoFrames = (flag('--video-frames') ?? 'pixels') as 'pixels' | 'canvas';
const cases = (flag('--cases') ?? Object.keys(CASES).slice(0, 3).join(',')).split(',').filter(Boolean);
const concurrency = (flag('--concurrency') ?? '').split(',').filter(Boolean).map(Number);
const concurrencyCase = flag('--concurrency-case') ?? 'video-720p-cinematic';
const keep = args.includes('--keep');
for (const c of [...cases, ...(concurrency.length ? [concurrencyCase] : [])]) {
  if (!CASES[c]) {
    console.error(`kit: unknown case ${c}; cases: ${Object.keys(CASES).join(', ')}`);
    process.exit(2);
  }
}

const stage: StageBundle = JSON.parse(await readFile(need('--stage'), 'utf8')) as StageBundle;
const demo: StageBuild = demoStageBuild('DEMO-GLASS');
const emit = (o: Record<string, unknown>) => console.log(JSON.stringify({ label, ...o }));
const round = (x: number, d = 1) => +x.toFixed(d);
const perFrame = (byKind: Record<string, number>, frames: number) =>
  Object.fromEntries(
    Object.entries(byKind)
      .filter(([, ms]) => ms / frames >= 0.5)
      .map(([k, ms]) => [k, round(ms / frames)]),
  );

/** An engine on the kit's tools only (no system Chromium or ffmpeg, no model store, the prebuilt stage). */
const engine = (): Promise<RenderEngine> =>
  createRenderEngine(
    { glBackend: gl, chromiumPath, ffmpegPath, systemTools: false },
    { stage: async () => stage, models: null, log: (line) => emit({ log: line }) },
  );

await mkdir(outDir, { recursive: true });
const main = await engine();
try {
  const t0 = performance.now();
  const info = await main.info();
  emit({
    info: { backend: info.backend, renderer: info.glRenderer, gpu: info.gpu, note: info.note ?? null },
    cold_start_ms: Math.round(performance.now() - t0),
    cpus: os.cpus().length,
    node: process.version,
  });

  for (const name of cases) {
    const o = resolveRenderOptions(CASES[name]!);
    const frames = Math.min(o.frames, frameLimit ?? o.frames);
    const pure = await pureLoop(main.pool, o, frames, demo);
    const work = path.join(outDir, `work-${label}-${name}`);
    const m = await measured(() =>
      main.render({ build: demo, options: o, outDir: work, outputs: { [o.format]: true }, frameLimit, videoFrames }),
    );
    const r = m.value;
    const full = (r.timings.render + r.timings.encode) / r.frames;
    emit({
      case: name,
      size: `${o.width}x${o.height}`,
      frames: r.frames,
      path: r.videoPath ?? 'raw',
      video_frames: o.format === 'video' ? videoFrames : null,
      pure_ms: round(pure.ms),
      full_ms: round(full),
      full_over_pure: round(full / pure.ms, 2),
      fps_full: round(1000 / full),
      wall_s: round(r.timings.total / 1000, 2),
      load_ms: r.timings.load,
      tail_ms: r.timings.encode,
      cpu_pure_by_process: perFrame(pure.byKind, 1),
      cpu_full_by_process: perFrame(m.byKind, r.frames),
      cpu_full: round(Math.max(0, m.cpu - pure.loadCpu) / r.frames),
      mb: round(r.files[0]!.bytes / 1e6, 2),
    });
    if (keep) await copyFile(r.files[0]!.path, path.join(outDir, `${label}-${name}${path.extname(r.files[0]!.path)}`));
    await rm(work, { recursive: true, force: true });
  }
} finally {
  await main.close();
}

for (const n of concurrency) {
  const o = resolveRenderOptions(CASES[concurrencyCase]!);
  const engines = await Promise.all(Array.from({ length: n }, () => engine()));
  try {
    // every browser launched and its GL checked before the clock starts
    const infos = await Promise.all(engines.map((e) => e.info()));
    const m = await measured(() =>
      Promise.all(
        engines.map((e, i) =>
          e.render({
            build: demo,
            options: o,
            outDir: path.join(outDir, `conc-${label}-${n}-${i}`),
            outputs: { [o.format]: true },
            frameLimit,
            videoFrames,
          }),
        ),
      ),
    );
    const frames = m.value.reduce((sum, r) => sum + r.frames, 0);
    emit({
      concurrency: n,
      case: concurrencyCase,
      backends: [...new Set(infos.map((i) => i.backend))],
      frames,
      wall_s: round(m.wall / 1000, 2),
      fps_total: round((frames * 1000) / m.wall),
      // the turns alone (the stage loads, at the start of every render, left out)
      fps_turns: round((frames * 1000) / Math.max(...m.value.map((r) => r.timings.render + r.timings.encode))),
      fps_each: round((frames * 1000) / m.wall / n),
      cpu_cores: round(m.cpu / m.wall, 2),
      cpu_by_process_per_frame: perFrame(m.byKind, frames),
    });
  } finally {
    await Promise.all(engines.map((e) => e.close()));
    await Promise.all(
      engines.map((_, i) => rm(path.join(outDir, `conc-${label}-${n}-${i}`), { recursive: true, force: true })),
    );
  }
}
