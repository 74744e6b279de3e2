/**
 * `render-farm models preview <partId> --out still.png [--file model.glb]`: the part drawn as its
 * model alone on the studio floor at the hero angle (render/model-preview.ts). With --file, that
 * GLB (not stored: try a model before `models add`); without, the part's current stored model.
 * `previewCommand` is the action; `registerModelsPreview` adds the subcommand to `models`.
 */
import type { Command } from 'commander';
import { MAX_SIZE, MIN_SIZE, PROFILES } from '../model/render-defaults.js';
import { CLI_PART_LISTING, configFor, printJson, withDb } from './common.js';
import { UsageError } from './errors.js';
import { parseRenderOptionFlags } from './render-option-flags.js';

export interface PreviewFlags {
  out?: string;
  /** a GLB to preview instead of the stored model */
  file?: string;
  /** with --file: scale it to the part's catalog size */
  fit?: boolean;
  /** with --file: as models add's (model-orientation.ts) */
  force?: boolean;
  up?: string;
  front?: string;
  units?: string;
  width?: string;
  height?: string;
  profile?: string;
  json?: boolean;
}

/** Renders the preview; prints the written path (or a JSON summary with --json). */
export async function previewCommand(partId: string, flags: PreviewFlags, cmd: Command): Promise<unknown> {
  if (!flags.out) throw new UsageError('--out <still.png> is required');
  if (!/\.(png|webp)$/i.test(flags.out))
    throw new UsageError(`--out ${flags.out}: the still is written as .png or .webp`);
  // the render options' own lists and limits (the API's schema), reported under the flags' names
  const { width, height, profile } = parseRenderOptionFlags({
    width: flags.width,
    height: flags.height,
    profile: flags.profile,
  });
  const cfg = configFor(cmd);
  const orientation = (await import('../part-models/model-orientation.js')).parseOverrides({
    up: flags.up,
    front: flags.front,
    units: flags.units,
  });
  // a missing file or an external URI fails before anything starts
  const input = flags.file
    ? await (await import('../part-models/model-input.js')).readModelFile(flags.file, cfg.modelMaxBytes)
    : null;
  let bytes: Uint8Array | null = null;
  // set inside the database callback: typed wide, or the compiler narrows it to null
  let placed = null as { summary: string; guessed: boolean; warnings: string[] } | null;
  const { part, sha256 } = await withDb(cfg, async (db) => {
    const { getPartsByIds } = await import('../catalog/parts.js');
    const [row] = await getPartsByIds(db, [partId]);
    if (!row) throw new UsageError(`part ID not found in the catalog: ${partId} (${CLI_PART_LISTING})`);
    const { resolveBuild } = await import('../catalog/resolve-build.js');
    const { build } = await resolveBuild(db, { [row.category]: [row.id] });
    const resolved = build.parts[row.category]?.[0];
    if (!resolved) throw new UsageError(`part ID not found in the catalog: ${partId} (${CLI_PART_LISTING})`);
    if (input) {
      // prepared as `models add` would store it: what the preview shows is what a render would draw
      const { prepareModelIsolated } = await import('../part-models/prepare-isolated.js');
      const { modelLimitsFrom } = await import('../part-models/model-limits.js');
      const prepared = await prepareModelIsolated(input, resolved, {
        limits: modelLimitsFrom(cfg),
        fit: flags.fit === true,
        force: flags.force === true,
        orientation,
      });
      bytes = prepared.glb;
      placed = {
        summary: prepared.orientation.summary,
        guessed: prepared.orientation.guessed,
        warnings: prepared.warnings,
      };
      return { part: resolved, sha256: null };
    }
    const sha = build.models?.[partId];
    // the library's error (404 no_model, as the API answers), with this command's own way out
    if (!sha)
      throw new (await import('../part-models/model-library.js')).NoModelError(
        partId,
        'preview a file with --file <file.glb>',
      );
    return { part: resolved, sha256: sha };
  });
  const { createRenderEngine } = await import('../render/engine.js');
  // the stored model comes through the engine's default source (the configured store)
  const engine = await createRenderEngine(cfg, bytes ? { models: null } : {});
  try {
    const { renderModelPreview } = await import('../render/model-preview.js');
    const result = await renderModelPreview(engine, part, bytes ?? sha256!, { out: flags.out, width, height, profile });
    if (flags.json) printJson({ partId, ...result, ...(placed ? { placed } : {}) });
    else {
      process.stdout.write(`${result.path}  ${result.width}x${result.height}  model ${result.sha256}\n`);
      // a guessed side is what this still is for: say so beside it
      if (placed)
        process.stdout.write(
          `placed: ${placed.summary}${placed.guessed ? ' (which way the front faces is a guess: check the still; --front sets it)' : ''}\n${placed.warnings.map((w) => `warning: ${w}\n`).join('')}`,
        );
    }
    return result;
  } finally {
    await engine.close();
  }
}

/** Adds `preview` to the `models` command. */
export function registerModelsPreview(models: Command): Command {
  return models
    .command('preview <partId>')
    .description(
      'Render a part drawn as its model alone on the studio floor, hero angle (the stored model, or --file).',
    )
    .option('--out <still.png>', 'where to write the still (.png or .webp)')
    .option('--file <model.glb>', 'preview this GLB instead of the stored model (nothing is stored)')
    .option(
      '--fit',
      "with --file: scale a model of the right proportions but the wrong size to the part's catalog size",
    )
    .option('--force', "with --file: draw a model whose proportions are not the part's anyway")
    .option('--up <axis>', "with --file: the file's axis that points up (+x, -x, +y, -y, +z, -z; default detected)")
    .option('--front <axis>', "with --file: the file's axis that points to the part's front (default detected)")
    .option('--units <unit>', 'with --file: what one unit of the file is: m, cm, mm, inch (default detected)')
    .option('--width <px>', `${MIN_SIZE}..${MAX_SIZE}, with --height (default 768)`)
    .option('--height <px>', `${MIN_SIZE}..${MAX_SIZE} (default 768)`)
    .option('--profile <name>', `${PROFILES.join(', ')} (default cinematic)`)
    .option('--json', 'print a JSON summary')
    .addHelpText(
      'after',
      '\nExamples:\n  $ render-farm models preview okgxgd18p --out gpu.png\n  $ render-farm models preview okgxgd18p --file ./rtx4070.glb --out try.png',
    )
    .action(async (partId: string, flags: PreviewFlags, cmd: Command) => {
      await previewCommand(partId, flags, cmd);
    });
}
