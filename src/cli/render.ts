/**
 * `render-farm render`: renders one build locally to files (no server): from part IDs, a saved
 * build's share code, or a build JSON file; or several saved builds in turn with one browser
 * (a CI smoke render of many builds launches Chromium once). Options are validated by the same
 * zod schema as the API before anything starts; Chromium, ffmpeg and the renderer load only in
 * the action.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { ExitError, UsageError } from './errors.js';
import { CLI_PART_LISTING, configFor, printJson } from './common.js';
import { collect, parsePartsFlags } from './parts-flag.js';
import { addRenderOptionFlags, parseRenderOptionFlags } from './render-option-flags.js';
import { settingOption } from './setting-flags.js';
import type { Config } from '../config.js';
import type { InteractiveState } from '../model/interactive-state.js';
import type { PartIdMap } from '../model/part.js';
import type { RenderOptions, ResolvedRenderOptions } from '../model/render-options.js';
import type { StageBuild } from '../model/stage-contract.js';
import type { ModelInput } from '../part-models/model-input.js';
import type { PrepareOptions } from '../part-models/prepare-model.js';
import type { RenderProgress } from '../render/turn.js';

interface RenderFlags {
  parts: string[];
  /** repeatable: several codes render in turn, each into <out>/<code>/ */
  shareCode: string[];
  build?: string;
  out?: string;
  json?: boolean;
  screenshotFormat?: string;
  screenshot?: boolean;
  /** `--model <partId>=<file.glb>`, repeatable: try a model in this render without storing it */
  model: string[];
  /** scale --model files to the part's catalog size instead of refusing a size off by over 2x */
  fit?: boolean;
  /** the render option flags (render-option-flags.ts) */
  [option: string]: unknown;
}

export default function register(program: Command): void {
  const render = program
    .command('render')
    .description(
      'Render one build (or several saved ones) to files locally: an MP4 turntable or a WebP sprite sheet, plus a still.',
    )
    .option(
      '--parts <CAT=ids>',
      'parts by category, repeatable: --parts PCCase=adp88gxul --parts "GPU=a RAM=b,c"',
      collect,
      [],
    )
    .option(
      '--share-code <code>',
      'a saved build (its fan/radiator/RGB state is applied); repeatable: the builds render in turn with one browser, each into --out/CODE/',
      collect,
      [],
    )
    .option(
      '--build <file.json>',
      'a JSON file: a POST /render-build body {"parts": {"CAT": ["id"]}, ...options} and optionally "state": {...}; flags override its options',
    )
    .option('--out <dir>', 'output directory (files: video.mp4 or sprite.webp, and screenshot.webp)')
    .option(
      '--model <partId=file.glb>',
      'draw a part of the build as this GLB (prepared as models add does, not stored; repeatable; one build only, not with several --share-code)',
      collect,
      [],
    )
    .option(
      '--fit',
      "with --model: scale a model of the right proportions but the wrong size to its part's catalog size",
    )
    .option('--force', "with --model: draw a model whose proportions are not its part's anyway")
    .option('--up <axis>', "with --model: the files' axis that points up (+x, -x, +y, -y, +z, -z; default detected)")
    .option('--front <axis>', "with --model: the files' axis that points to the part's front (default detected)")
    .option('--units <unit>', 'with --model: what one unit of the files is: m, cm, mm, inch (default detected)');
  addRenderOptionFlags(render)
    .option('--screenshot-format <fmt>', 'webp or png (default webp)')
    .option('--no-screenshot', 'skip the hero still')
    .addOption(settingOption('glBackend'))
    .option(
      '--json',
      'print a JSON summary (files, sizes, durations, backend, frames/s); with several --share-code an array of them, each with its shareCode',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm render --share-code DEMO-GLASS --out ./out
  $ render-farm render --share-code DEMO-GLASS --format sprite --frame-quality high --out ./out
  $ render-farm render --share-code DEMO-GLASS --share-code DEMO-MESH --format sprite --profile fast --out ./out --json
  $ render-farm render --parts PCCase=adp88gxul --parts GPU=<id> --profile fast --width 640 --height 360 --out ./out --json
  $ render-farm render --share-code DEMO-GLASS --model okgxgd18p=./my-gpu.glb --out ./out`,
    )
    .action(async (flags: RenderFlags, cmd: Command) => {
      const summary = await runRender(flags, cmd);
      if (flags.json) printJson(summary);
    });
}

async function runRender(flags: RenderFlags, cmd: Command): Promise<unknown> {
  const flagOptions = parseRenderOptionFlags(flags);
  const sources = [flags.parts.length ? 1 : 0, flags.shareCode.length ? 1 : 0, flags.build ? 1 : 0].reduce(
    (a, b) => a + b,
    0,
  );
  if (sources !== 1) throw new UsageError('give exactly one of --parts, --share-code or --build');
  const twice = flags.shareCode.find((code, i) => flags.shareCode.indexOf(code) !== i);
  if (twice) throw new UsageError(`--share-code ${twice} is given twice`);
  // a trial model replaces a part of one build; across several builds it would silently miss most of them
  if (flags.shareCode.length > 1 && flags.model.length)
    throw new UsageError('--model takes one build: give one --share-code with it');
  if (!flags.out) throw new UsageError('--out <dir> is required');
  const shot = flags.screenshot === false ? false : (flags.screenshotFormat ?? 'webp');
  if (shot !== false && shot !== 'webp' && shot !== 'png')
    throw new UsageError(`--screenshot-format must be webp or png, got "${shot}"`);
  // --gl is validated by config, with the other settings
  const cfg = configFor(cmd);
  // a bad parts map or model file fails here, before anything is created or started
  const given = await readGivenBuild(flags);
  const options = await withFileOptions(given?.options ?? {}, flagOptions, flags.build);
  const { readTrialModels } = await import('../part-models/trial-models.js');
  const models = await readTrialModels(flags.model ?? [], cfg.modelMaxBytes);
  const { parseOverrides } = await import('../part-models/model-orientation.js');
  const placing = {
    fit: flags.fit === true,
    force: flags.force === true,
    orientation: parseOverrides({ up: flags.up, front: flags.front, units: flags.units }),
  };

  // a bad --out fails here, before the database starts and the browser launches
  const { ensureDirCreating, removeCreatedDirs } = await import('../ensure-dir.js');
  const out = await ensureDirCreating(flags.out, 'output directory (flag --out)');
  const created = [...out.created];
  try {
    return await renderInto(out.path, created, flags, given, cfg, options, shot, models, placing);
  } catch (err) {
    // a failed render leaves no empty --out (or build sub-directory) behind; a directory the user made stays
    await removeCreatedDirs(created);
    throw err;
  }
}

async function renderInto(
  outDir: string,
  /** the directories this run made, outermost first; each build's sub-directory is added */
  created: string[],
  flags: RenderFlags,
  given: GivenBuild | null,
  cfg: Config,
  options: ResolvedRenderOptions,
  shot: false | 'webp' | 'png',
  modelFiles: Map<string, ModelInput>,
  placing: Omit<PrepareOptions, 'limits'>,
): Promise<unknown> {
  // the engine finds the tools before the database starts: a missing one fails in a second
  const { createRenderEngine } = await import('../render/engine.js');
  const { configuredModelSource, withOverrides } = await import('../render/model-source.js');
  // stored models of the build's parts; --model files go in front of them
  const stored = await configuredModelSource(cfg);
  const engine = await createRenderEngine(cfg, { models: stored });
  let targets: RenderTarget[];
  let overrides;
  try {
    // every share code is resolved before anything renders: an unknown one fails the lot
    targets = await resolveBuilds(flags, given, cfg);
    // each --model file is prepared as `models add` would store it (validated, sized, compressed); --model comes with one build only
    const { prepareTrialModels, withTrialModels } = await import('../part-models/trial-models.js');
    const { modelLimitsFrom } = await import('../part-models/model-limits.js');
    const prepared = await prepareTrialModels(targets[0]!.build, modelFiles, {
      ...placing,
      limits: modelLimitsFrom(cfg),
    });
    overrides = withOverrides(stored, prepared.values());
    targets[0]!.build = withTrialModels(targets[0]!.build, [...prepared.keys()], overrides.shas);
  } catch (err) {
    await engine.close();
    throw err;
  }
  const several = targets.length > 1;
  const abort = new AbortController();
  const onSignal = () => abort.abort(new ExitError(130, 'render cancelled'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const summaries: unknown[] = [];
  const { ensureDirCreating } = await import('../ensure-dir.js');
  try {
    for (const [i, { shareCode, build }] of targets.entries()) {
      // several builds: each into its own <out>/<code>/ with the same file names
      let dir = outDir;
      if (several) {
        process.stderr.write(`render ${shareCode} (${i + 1}/${targets.length})\n`);
        const sub = await ensureDirCreating(path.join(outDir, shareCode!), 'output directory (flag --out)');
        created.push(...sub.created);
        dir = sub.path;
      }
      const progress = await progressReporter(!flags.json && process.stderr.isTTY === true);
      try {
        const result = await engine.render({
          build,
          options,
          outputs: { [options.format]: true, screenshot: shot },
          outDir: dir,
          signal: abort.signal,
          onProgress: progress.update,
          ...(modelFiles.size ? { models: overrides.source } : {}),
        });
        progress.stop();
        if (!flags.json) {
          for (const f of result.files)
            process.stdout.write(`${f.path}  ${f.width}x${f.height}  ${(f.bytes / 1024).toFixed(0)} KiB\n`);
          process.stdout.write(
            `${several ? `${shareCode}: ` : ''}${result.frames} frames in ${(result.timings.total / 1000).toFixed(1)} s (${result.framesPerSecond} frames/s, WebGL ${result.backend}: ${result.glRenderer})\n`,
          );
          for (const w of result.warnings) process.stderr.write(`warning: ${several ? `${shareCode}: ` : ''}${w}\n`);
        }
        // the prepared --model files by sha256: the bytes models add would store for the same file
        const models = modelFiles.size
          ? { models: Object.fromEntries([...modelFiles.keys()].map((id) => [id, build.models?.[id]])) }
          : {};
        summaries.push(several ? { shareCode, ...result, options } : { ...result, options, ...models });
      } finally {
        progress.stop();
      }
    }
    return several ? summaries : summaries[0];
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await engine.close();
  }
}

/** One build to render; the share code names its sub-directory of --out when there are several. */
interface RenderTarget {
  shareCode: string | null;
  build: StageBuild;
}

/** A build given by --parts or --build: its map checked by the shared rules (model/parts-map.ts), and the options a build file sets. */
interface GivenBuild {
  parts: PartIdMap;
  state: InteractiveState | null;
  options: RenderOptions;
}

/** The --parts or --build build (null for --share-code); a map the rules refuse is a usage error. */
async function readGivenBuild(flags: RenderFlags): Promise<GivenBuild | null> {
  if (flags.build) return (await import('../catalog/build-file.js')).readBuildFile(flags.build);
  if (!flags.parts.length) return null;
  const { parsePartsMap } = await import('../model/parts-map.js');
  const check = parsePartsMap(parsePartsFlags(flags.parts));
  if (!check.ok) throw new UsageError(`--parts: ${check.refusal.message}`);
  return { parts: check.parts, state: null, options: {} };
}

/** A build file's render options with the flags over them (a flag wins), the API's rules checked on the result. */
async function withFileOptions(
  file: RenderOptions,
  flags: RenderOptions,
  buildFile: string | undefined,
): Promise<ResolvedRenderOptions> {
  const { renderOptionsSchema, resolveRenderOptions } = await import('../model/render-options.js');
  const grid =
    file.gridSettings || flags.gridSettings ? { gridSettings: { ...file.gridSettings, ...flags.gridSettings } } : {};
  // flags give width and height together (their own rule), so a flag size replaces the file's whole
  const merged = renderOptionsSchema.safeParse({ ...file, ...flags, ...grid });
  if (!merged.success)
    throw new UsageError(
      `--build ${buildFile} with the flags: ${merged.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return resolveRenderOptions(merged.data);
}

/** The builds to render, from the catalog (exit 2 for unknown IDs or share codes, every code looked up before any renders). */
async function resolveBuilds(flags: RenderFlags, given: GivenBuild | null, cfg: Config): Promise<RenderTarget[]> {
  const { withDb } = await import('./common.js');
  const { buildsForShareCodes, BuildNotFoundError } = await import('../catalog/builds.js');
  const { seedDemoCatalog } = await import('../catalog/seed-demo.js');
  const { resolveBuild: resolveFromCatalog, UnknownPartsError } = await import('../catalog/resolve-build.js');
  return withDb(cfg, async (db) => {
    if (cfg.seedDemo) await seedDemoCatalog(db);
    const targets: RenderTarget[] = [];
    try {
      const wanted = flags.shareCode.length
        ? await buildsForShareCodes(db, flags.shareCode)
        : [{ shareCode: null, ...given! }];
      // a build without a case is drawn in the stage's default case (model/parts-map.ts)
      for (const w of wanted)
        targets.push({ shareCode: w.shareCode, build: (await resolveFromCatalog(db, w.parts, w.state)).build });
    } catch (err) {
      // the catalog's errors, with the command that lists what exists
      if (err instanceof BuildNotFoundError) throw new UsageError(`${err.message} (see: render-farm builds list)`);
      if (!(err instanceof UnknownPartsError)) throw err;
      throw new UsageError(
        `part ID${err.ids.length > 1 ? 's' : ''} not found in the catalog: ${err.ids.join(', ')} (${CLI_PART_LISTING})`,
      );
    }
    return targets;
  });
}

/** A cli-progress bar on a TTY; otherwise a plain line per 10% (CI logs). */
async function progressReporter(tty: boolean) {
  type P = RenderProgress;
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
    {
      format: 'render [{bar}] {value}/{total} frames | {fps} frames/s | ETA {eta_formatted} | {stage}',
      hideCursor: true,
      clearOnComplete: true,
      stream: process.stderr,
    },
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
