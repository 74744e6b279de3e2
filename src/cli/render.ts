/**
 * `render-farm render`: renders one build locally to files (no server): from part IDs, a saved
 * build's share code, or a build JSON file. Options are validated by the same zod schema as
 * the API before anything starts; Chromium, ffmpeg and the renderer load only in the action.
 */
import type { Command } from 'commander';
import { ExitError, UsageError } from './errors.js';
import { configFor, printJson } from './common.js';

interface RenderFlags {
  parts?: string[];
  shareCode?: string;
  build?: string;
  out?: string;
  json?: boolean;
  format?: string;
  width?: string;
  height?: string;
  profile?: string;
  scene?: string;
  showBackground?: boolean;
  showGrid?: boolean;
  winter?: boolean;
  spring?: boolean;
  cameraOffsetX?: string;
  cameraZoom?: string;
  gridCellThickness?: string;
  gridSectionThickness?: string;
  gridColor?: string;
  gridFadeDistance?: string;
  gridRenderOrder?: string;
  frameQuality?: string;
  screenshotFormat?: string;
  screenshot?: boolean;
  gl?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A number flag as zod sees it: NaN for junk so the schema reports it. */
const num = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? Number.NaN : Number(v));

/** Flag name for a render option key, for error messages. */
const FLAG_OF: Record<string, string> = {
  winterMode: '--winter',
  springMode: '--spring',
  'gridSettings.cellThickness': '--grid-cell-thickness',
  'gridSettings.sectionThickness': '--grid-section-thickness',
  'gridSettings.color': '--grid-color',
  'gridSettings.fadeDistance': '--grid-fade-distance',
  'gridSettings.renderOrder': '--grid-render-order',
};
const flagOf = (key: string) => FLAG_OF[key] ?? `--${key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`;

/** Flags -> the API's render options object (undefined where not given). */
export function renderOptionsFromFlags(f: RenderFlags): Record<string, unknown> {
  const grid = {
    cellThickness: num(f.gridCellThickness),
    sectionThickness: num(f.gridSectionThickness),
    color: f.gridColor,
    fadeDistance: num(f.gridFadeDistance),
    renderOrder: num(f.gridRenderOrder),
  };
  const gridGiven = Object.values(grid).some((v) => v !== undefined);
  const raw: Record<string, unknown> = {
    format: f.format,
    width: num(f.width),
    height: num(f.height),
    profile: f.profile,
    scene: f.scene,
    showBackground: f.showBackground,
    showGrid: f.showGrid,
    winterMode: f.winter,
    springMode: f.spring,
    cameraOffsetX: num(f.cameraOffsetX),
    cameraZoom: num(f.cameraZoom),
    gridSettings: gridGiven ? Object.fromEntries(Object.entries(grid).filter(([, v]) => v !== undefined)) : undefined,
    frameQuality: f.frameQuality,
  };
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
}

/** `--parts CAT=id[,id]` values -> a category -> IDs map (categories checked by the caller). */
export function parsePartsFlags(values: string[]): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const v of values) {
    const m = /^([A-Za-z]+)=(.+)$/.exec(v.trim());
    if (!m) throw new UsageError(`--parts takes CATEGORY=id[,id], e.g. --parts GPU=k2m9x0aqz; got "${v}"`);
    const ids = m[2]!.split(',').map((s) => s.trim()).filter(Boolean);
    (map[m[1]!] ??= []).push(...ids);
  }
  return map;
}

export default function register(program: Command): void {
  program
    .command('render')
    .description('Render one build to files locally: an MP4 turntable or a WebP sprite sheet, plus a still.')
    .option('--parts <CAT=ids>', 'parts by category, repeatable: --parts PCCase=adp88gxul --parts RAM=a,b', collect)
    .option('--share-code <code>', 'a saved build (its fan/radiator/RGB state is applied)')
    .option('--build <file.json>', 'a JSON file {"parts": {"CAT": ["id"]}, "state"?: {...}}')
    .option('--out <dir>', 'output directory (files: video.mp4 or sprite.webp, and screenshot.webp)')
    .option('--format <format>', 'video or sprite (default video)')
    .option('--width <px>', 'width, 256..8192 (with --height; video default 1280, sprite frame 512)')
    .option('--height <px>', 'height, 256..8192 (video default 720, sprite frame 512)')
    .option('--profile <profile>', 'cinematic, flat or fast (default cinematic)')
    .option('--scene <scene>', 'lighting/background preset (default studio)')
    .option('--show-background', 'draw the scene background')
    .option('--no-show-background', 'plain background')
    .option('--show-grid', 'draw the floor grid (cinematic default)')
    .option('--no-show-grid', 'no floor grid')
    .option('--winter', 'winter mode')
    .option('--spring', 'spring mode')
    .option('--camera-offset-x <x>', 'horizontal camera offset, clamped to -0.3..0.3')
    .option('--camera-zoom <z>', 'camera distance factor, clamped to 0.5..2.0')
    .option('--grid-cell-thickness <n>', 'grid cell line thickness (0.8)')
    .option('--grid-section-thickness <n>', 'grid section line thickness (1.4)')
    .option('--grid-color <hex>', 'grid colour (#6f6f6f)')
    .option('--grid-fade-distance <n>', 'grid fade distance (20)')
    .option('--grid-render-order <n>', 'grid render order (-1)')
    .option('--frame-quality <q>', 'sprite frames: standard (72) or high (144)')
    .option('--screenshot-format <fmt>', 'webp or png (default webp)')
    .option('--no-screenshot', 'skip the hero still')
    .option('--gl <backend>', 'WebGL backend: auto, egl or swiftshader (env RENDER_FARM_GL)')
    .option('--json', 'print a JSON summary (files, sizes, durations, backend, frames/s)')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm render --share-code DEMO-GLASS --out ./out
  $ render-farm render --share-code DEMO-GLASS --format sprite --frame-quality high --out ./out
  $ render-farm render --parts PCCase=adp88gxul --parts GPU=<id> --profile fast --width 640 --height 360 --out ./out --json`,
    )
    .action(async (flags: RenderFlags, cmd: Command) => {
      const summary = await runRender(flags, cmd);
      if (flags.json) printJson(summary);
    });
}

/** Zod issues -> one line naming the flags. */
function optionsError(issues: { path: PropertyKey[]; message: string }[]): UsageError {
  return new UsageError(issues.map((i) => `${flagOf(i.path.map(String).join('.'))}: ${i.message}`).join('; '));
}

async function runRender(flags: RenderFlags, cmd: Command): Promise<unknown> {
  const { renderOptionsSchema, renderOptionsProblem, resolveRenderOptions } = await import('../model/render-options.js');
  const parsed = renderOptionsSchema.safeParse(renderOptionsFromFlags(flags));
  if (!parsed.success) throw optionsError(parsed.error.issues);
  const problem = renderOptionsProblem(parsed.data);
  if (problem) throw new UsageError(`${flagOf(problem.field)}: ${problem.message}`);
  const options = resolveRenderOptions(parsed.data);
  const sources = [flags.parts?.length ? 1 : 0, flags.shareCode ? 1 : 0, flags.build ? 1 : 0].reduce((a, b) => a + b, 0);
  if (sources !== 1) throw new UsageError('give exactly one of --parts, --share-code or --build');
  if (!flags.out) throw new UsageError('--out <dir> is required');
  const shot = flags.screenshot === false ? false : (flags.screenshotFormat ?? 'webp');
  if (shot !== false && shot !== 'webp' && shot !== 'png') throw new UsageError(`--screenshot-format must be webp or png, got "${shot}"`);
  if (flags.gl !== undefined && !['auto', 'egl', 'swiftshader'].includes(flags.gl)) throw new UsageError(`--gl must be auto, egl or swiftshader, got "${flags.gl}"`);
  const cfg = configFor(cmd, { glBackend: flags.gl });

  // find the tools before starting the database: a missing one should fail in a second
  const { findChromium, findFfmpeg, MissingToolError } = await import('../render/tool-paths.js');
  let chromium, ffmpegPath;
  try {
    chromium = await findChromium(cfg, cfg.searchPath);
    ffmpegPath = (await findFfmpeg(cfg, cfg.searchPath)).path;
  } catch (err) {
    if (err instanceof MissingToolError) throw new ExitError(1, err.message);
    throw err;
  }

  const build = await resolveBuild(flags, cfg);
  const { BrowserPool } = await import('../render/browser-pool.js');
  const { renderBuild } = await import('../render/renderer.js');
  const { farmStageBundle } = await import('../render/stage-bundle.js');
  const path = await import('node:path');
  const progress = await progressReporter(!flags.json && process.stderr.isTTY === true);
  const pool = new BrowserPool({
    chromiumPath: chromium.path,
    glBackend: chromium.source === 'package' && cfg.glBackend === 'auto' ? 'swiftshader' : cfg.glBackend,
    stage: farmStageBundle,
    noSandbox: process.getuid?.() === 0,
  });
  const abort = new AbortController();
  const onSignal = () => abort.abort(new ExitError(130, 'render cancelled'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const result = await renderBuild({
      pool,
      ffmpegPath,
      build,
      options,
      outputs: { [options.format]: true, screenshot: shot },
      outDir: path.resolve(flags.out),
      signal: abort.signal,
      onProgress: progress.update,
    });
    progress.stop();
    if (!flags.json) {
      for (const f of result.files) process.stdout.write(`${f.path}  ${f.width}x${f.height}  ${(f.bytes / 1024).toFixed(0)} KiB\n`);
      process.stdout.write(
        `${result.frames} frames in ${(result.timings.total / 1000).toFixed(1)} s (${result.framesPerSecond} frames/s, WebGL ${result.backend}: ${result.glRenderer})\n`,
      );
      for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
    }
    return { ...result, options };
  } finally {
    progress.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await pool.close();
  }
}

/** The build to render, from the catalog (exit 2 for unknown IDs or share codes). */
async function resolveBuild(flags: RenderFlags, cfg: import('../config.js').Config): Promise<import('../model/stage-contract.js').StageBuild> {
  const { isCategory } = await import('../model/part.js');
  const { interactiveStateSchema } = await import('../model/interactive-state.js');
  let partIds: Record<string, string[]> | null = null;
  let state: import('../model/interactive-state.js').InteractiveState | null = null;
  if (flags.parts?.length) partIds = parsePartsFlags(flags.parts);
  if (flags.build) {
    const { readFile } = await import('node:fs/promises');
    let json: unknown;
    try {
      json = JSON.parse(await readFile(flags.build, 'utf8'));
    } catch (err) {
      throw new UsageError(`--build ${flags.build}: ${(err as Error).message}`);
    }
    const { z } = await import('zod');
    const file = z.object({ parts: z.record(z.string(), z.array(z.string().min(1))), state: interactiveStateSchema.nullable().optional() }).strict().safeParse(json);
    if (!file.success) throw new UsageError(`--build ${flags.build}: ${file.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    partIds = file.data.parts;
    state = file.data.state ?? null;
  }
  if (partIds) {
    const bad = Object.keys(partIds).filter((c) => !isCategory(c));
    if (bad.length) throw new UsageError(`unknown part categor${bad.length > 1 ? 'ies' : 'y'} ${bad.join(', ')}`);
  }
  const { withDb } = await import('./common.js');
  const { getBuild, resolveBuildParts, seedDemoCatalog } = await import('../catalog/repository.js');
  return withDb(cfg, async (db) => {
    if (cfg.seedDemo) await seedDemoCatalog(db);
    if (flags.shareCode) {
      const saved = await getBuild(db, flags.shareCode);
      if (!saved) throw new UsageError(`share code "${flags.shareCode}" not found (see: render-farm builds list)`);
      partIds = saved.parts as Record<string, string[]>;
      state = saved.interactiveState ?? null;
    }
    const resolved = await resolveBuildParts(db, partIds ?? {});
    if (resolved.missing.length) throw new UsageError(`part ID${resolved.missing.length > 1 ? 's' : ''} not found in the catalog: ${resolved.missing.join(', ')}`);
    if (!resolved.parts.PCCase?.length) throw new UsageError('the build has no PCCase: a case is needed to render');
    return { parts: resolved.parts, state };
  });
}

/** A cli-progress bar on a TTY; otherwise a plain line per 10% (CI logs). */
async function progressReporter(tty: boolean) {
  type P = import('../render/renderer.js').RenderProgress;
  if (!tty) {
    let lastTenth = -1;
    let stopped = false;
    return {
      update(p: P) {
        if (stopped || p.stage !== 'render' || p.total === 0) return;
        const tenth = Math.floor((p.frame / p.total) * 10);
        if (tenth > lastTenth) {
          lastTenth = tenth;
          process.stderr.write(`render: ${p.frame}/${p.total} frames, ${p.fps.toFixed(1)} frames/s\n`);
        }
      },
      stop() {
        stopped = true;
      },
    };
  }
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar(
    { format: 'render [{bar}] {value}/{total} frames | {fps} frames/s | ETA {eta_formatted} | {stage}', hideCursor: true, clearOnComplete: true, stream: process.stderr },
    Presets.shades_classic,
  );
  let started = false;
  let stopped = false;
  return {
    update(p: P) {
      if (stopped) return;
      if (!started && p.total > 0) {
        bar.start(p.total, 0, { fps: '0.0', stage: p.stage });
        started = true;
      }
      if (started) bar.update(p.frame, { fps: p.fps.toFixed(1), stage: p.stage });
    },
    stop() {
      if (started && !stopped) bar.stop();
      stopped = true;
    },
  };
}
