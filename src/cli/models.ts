/**
 * `render-farm models add|import|list|show|rm|rollback`: artists' glTF models of parts
 * (src/part-models/model-library.ts). A refused model is a user error (exit 2) and stores
 * nothing; `import` adds what it can and exits 1 when any file was refused.
 */
import os from 'node:os';
import type { Command } from 'commander';
import { registerModelsPreview } from './models-preview.js';
import type { Config } from '../config.js';
import type { AddedModel, ImportItem, ModelRecord } from '../part-models/model-library.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { ExitError, reportErrorsAsJson, UsageError } from './errors.js';
import { CATEGORIES } from '../model/part.js';
import {
  choiceFlag,
  CLI_PART_LISTING,
  configFor,
  intFlag,
  printJson,
  printList,
  subcommand,
  withDb,
  withExistingDb,
} from './common.js';
import type { Db } from '../db/database.js';

/** Who the rows name as their author: the local user (an API key names itself instead). */
function who(): string {
  try {
    return `cli:${os.userInfo().username}`;
  } catch {
    // no passwd entry (some containers): still say it came from the CLI
    return 'cli';
  }
}

const short = (sha: string) => sha.slice(0, 12);

function mib(n: number | null): string {
  if (n === null) return '-';
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

const when = (d: Date | null) => (d ? d.toISOString().replace(/\.\d+Z$/, 'Z') : '-');

/** Opens the database and the store, with the configured limits. */
async function withLibrary<T>(cfg: Config, fn: (db: Db, store: ArtifactStore) => Promise<T>): Promise<T> {
  const { openArtifactStore } = await import('../storage/open-artifact-store.js');
  const store = await openArtifactStore(cfg);
  return withDb(cfg, async (db) => {
    // models are given to catalog parts: a fresh data dir has the demo ones, as under `serve`
    if (cfg.seedDemo) await (await import('../catalog/seed-demo.js')).seedDemoCatalog(db);
    return fn(db, store);
  });
}

/** For list and show: the database only (they read no files), and only an existing data dir. */
async function readLibrary<T>(cfg: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  return withExistingDb(cfg, async (db) => {
    if (cfg.seedDemo) await (await import('../catalog/seed-demo.js')).seedDemoCatalog(db);
    return fn(db);
  });
}

/** What the orientation flags say (--up, --front, --units); a bad value is a usage error (exit 2). */
async function orientationFlags(opts: { up?: string; front?: string; units?: string }) {
  const { parseOverrides } = await import('../part-models/model-orientation.js');
  return parseOverrides({ up: opts.up, front: opts.front, units: opts.units });
}

/** The scale a row records, as a factor (`x0.001`), `-` on rows from before it was kept. */
const scaleText = (n: number | null) => (n === null ? '-' : n === 1 ? '1' : `x${Number(n.toPrecision(3))}`);

/** The rotation and units a row records, `-` on rows stored before they were. */
function placementText(r: ModelRecord): string {
  if (r.rotation === null) return '-';
  const unit = r.units === 'in' ? 'inch' : r.units;
  return `${r.rotation === 'none' ? 'as authored' : r.rotation}${unit && unit !== 'm' ? `; ${unit} -> m` : ''}${r.orientationGuessed ? ' (side guessed)' : ''}`;
}

function addedText(a: AddedModel): string {
  const p = a.prepared;
  if (a.unchanged)
    return `${a.part.category} ${a.part.id} (${a.part.name}) already has this model (${short(a.model.sha256)}): nothing changed\n`;
  const lines = [
    `added the model of ${a.part.category} ${a.part.id} (${a.part.name}): ${short(a.model.sha256)}`,
    `  ${p.triangles.toLocaleString('en')} triangles${p.originalTriangles !== p.triangles ? ` (from ${p.originalTriangles.toLocaleString('en')})` : ''}, ` +
      `${mib(p.preparedBytes)} (from ${mib(p.originalBytes)}), ${p.sizeMm.map((v) => Math.round(v)).join(' x ')} mm` +
      `${p.scale !== 1 ? `, scaled x${Number(p.scale.toPrecision(3))}` : ''}${p.anchors.length ? `, anchors ${p.anchors.join(', ')}` : ''}`,
    `  placed: ${p.orientation.summary}${p.orientation.evidence.length ? ` (side from ${p.orientation.evidence.slice(0, 3).join(', ')})` : ''}`,
    ...p.warnings.map((w) => `  warning: ${w}`),
  ];
  return lines.join('\n') + '\n';
}

/** An added model as --json prints it: the row and what preparation did. */
const addedJson = (a: AddedModel) => ({ part: a.part, model: a.model, unchanged: a.unchanged, prepared: a.prepared });

function importJson(items: ImportItem[]) {
  return {
    added: items.filter((i) => i.ok).length,
    failed: items.filter((i) => !i.ok).length,
    items: items.map((i) =>
      i.ok
        ? { partId: i.part, file: i.file, ok: true, ...addedJson(i.added) }
        : { partId: i.part, file: i.file, ok: false, error: i.error },
    ),
  };
}

function historyTable(rows: ModelRecord[], table: (h: string[], r: string[][]) => string): string {
  return table(
    ['VERSION', 'SHA256', 'STATE', 'TRIANGLES', 'BYTES', 'SCALE', 'ROTATION', 'FILE', 'BY', 'ADDED', 'RETIRED'],
    rows.map((r, i) => [
      String(r.version ?? '-'),
      short(r.sha256),
      r.retiredAt ? 'retired' : rows.findIndex((x) => !x.retiredAt) === i ? 'current' : 'previous',
      String(r.triangles ?? '-'),
      mib(r.preparedBytes),
      scaleText(r.scale),
      placementText(r),
      r.originalName ?? '-',
      r.createdBy ?? '-',
      when(r.createdAt),
      when(r.retiredAt),
    ]),
  );
}

export default function register(program: Command): void {
  const models = program
    .command('models')
    .description("Artists' glTF models of parts: a part with a model renders with it instead of its procedural model.")
    // a --json command's failure is JSON on stdout too ({"error": code, "message"}: the API's body)
    .hook('preAction', (_models, action) => reportErrorsAsJson(action.opts<{ json?: boolean }>().json === true))
    .addHelpText(
      'after',
      `
Models are glTF 2.0 (.glb, or .gltf with its files). The product's frame is metres, +Y up, front
+Z (docs/part-models.md); a file in another one is turned and scaled into it (the rotation and
units that bring it within 2x of the part's catalog size; --up/--front/--units say it instead).
Each is validated, placed, optimised and stored once by its sha256. Limits:
RENDER_FARM_MODEL_MAX_BYTES, _TRIANGLES, _TEXTURE, _NODES.

Examples:
  $ render-farm models add okgxgd18p ./rtx4070.glb
  $ render-farm models import ./models/               # every <partId>.glb in the folder
  $ render-farm models list --category GPU
  $ render-farm models rollback okgxgd18p`,
    );

  models
    .command('add <partId> <file>')
    .description('Give a part a model (.glb or .gltf); replaces its current one, which stays as history.')
    .option(
      '--fit',
      "scale a model of the part's proportions but the wrong size (no unit fits) to the part's catalog size",
    )
    .option('--force', "store a model whose proportions are not the part's anyway (with a warning)")
    .option('--up <axis>', "the file's axis that points up: +x, -x, +y, -y, +z, -z (default: detected)")
    .option('--front <axis>', "the file's axis that points to the part's front (default: detected)")
    .option('--units <unit>', 'what one unit of the file is: m, cm, mm, inch (default: detected)')
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      '\nExamples:\n  $ render-farm models add okgxgd18p ./rtx4070.glb\n  $ render-farm models add okgxgd18p ./rtx4070-cad.glb --units mm --up +z\n  $ render-farm models add adp88gxul ./case.gltf --fit --json',
    )
    .action(
      async (
        partId: string,
        file: string,
        opts: { fit?: boolean; force?: boolean; up?: string; front?: string; units?: string; json?: boolean },
        cmd: Command,
      ) => {
        const cfg = configFor(cmd);
        const { addModel } = await import('../part-models/model-library.js');
        const { readModelFile } = await import('../part-models/model-input.js');
        const { modelLimitsFrom } = await import('../part-models/model-limits.js');
        const limits = modelLimitsFrom(cfg);
        const orientation = await orientationFlags(opts);
        // read (and size-checked) before the database opens: a bad path fails fast
        const input = await readModelFile(file, limits.modelMaxBytes);
        const added = await withLibrary(cfg, (db, store) =>
          addModel(db, store, partId, input, { limits, fit: opts.fit, force: opts.force, orientation, who: who() }),
        );
        if (opts.json) printJson(addedJson(added));
        else process.stdout.write(addedText(added));
      },
    );

  models
    .command('import <dirOrManifest>')
    .description(
      'Add many models: a folder of <partId>.glb|.gltf files, or a manifest.json mapping files to parts. Exit 1 if any was refused.',
    )
    .option(
      '--fit',
      'scale models of the right proportions but the wrong size to their part\'s size (a manifest item\'s "fit" wins)',
    )
    .option('--force', 'store models whose proportions are not their part\'s anyway (a manifest item\'s "force" wins)')
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      `
A manifest: {"models": [{"part": "okgxgd18p", "file": "gpus/rtx4070.glb", "fit": false,
"force": false, "up": "+z", "front": "-x", "units": "mm"}]} (file paths relative to the manifest;
all but part and file optional). Each model is added or refused on its own; every warning is
printed under its file.

Examples:
  $ render-farm models import ./models/
  $ render-farm models import ./models/manifest.json --json`,
    )
    .action(async (target: string, opts: { fit?: boolean; force?: boolean; json?: boolean }, cmd: Command) => {
      const cfg = configFor(cmd);
      const { importModels } = await import('../part-models/model-library.js');
      const { modelLimitsFrom } = await import('../part-models/model-limits.js');
      const limits = modelLimitsFrom(cfg);
      const items = await withLibrary(cfg, (db, store) =>
        importModels(db, store, target, { limits, fit: opts.fit, force: opts.force, who: who() }),
      );
      const failed = items.filter((i) => !i.ok).length;
      if (opts.json) printJson(importJson(items));
      else {
        for (const i of items) {
          if (i.ok) {
            const p = i.added.prepared;
            process.stdout.write(
              `ok      ${i.part}  ${i.added.unchanged ? 'unchanged' : short(i.added.model.sha256)}  ${p.triangles} triangles  placed: ${p.orientation.summary}  ${i.file}\n`,
            );
            // every warning, under its file: a scaled or guessed model is worth a look
            for (const w of p.warnings) process.stdout.write(`          warning: ${w}\n`);
          } else process.stdout.write(`refused ${i.part}  ${i.file}: ${i.error.message}\n`);
        }
        process.stdout.write(`${items.length - failed} of ${items.length} models added\n`);
      }
      if (failed)
        throw new ExitError(
          1,
          `${failed} of ${items.length} models were refused (see above); fix them and import again: added ones stay`,
        );
    });

  subcommand(models, 'list', {
    description: 'Parts with a model: part, category, sha256, triangles, size, when added.',
    options: [['--category <category>', 'only parts of this category (e.g. GPU)']],
    json: true,
    examples: ['render-farm models list', 'render-farm models list --category PCCase --json'],
  }).action(async (opts: { category?: string; json?: boolean }, cmd: Command) => {
    const category = choiceFlag('category', opts.category, CATEGORIES);
    const { listModels } = await import('../part-models/model-library.js');
    const items = await readLibrary(configFor(cmd), (db) => listModels(db, { category }));
    const empty = `no part models${opts.category ? ` in ${opts.category}` : ''}: add one with "render-farm models add <partId> <file.glb>"\n`;
    printList(
      items,
      opts.json,
      empty,
      ['PART', 'CATEGORY', 'SHA256', 'TRIANGLES', 'BYTES', 'SCALE', 'ROTATION', 'ADDED', 'NAME'],
      (i) => [
        i.part.id,
        i.part.category,
        short(i.model.sha256),
        String(i.model.triangles ?? '-'),
        mib(i.model.preparedBytes),
        scaleText(i.model.scale),
        placementText(i.model),
        when(i.model.createdAt),
        i.part.name,
      ],
    );
  });

  subcommand(models, 'show <partId>', {
    description: "A part's current model and every earlier one (newest first).",
    json: true,
    examples: ['render-farm models show okgxgd18p'],
  }).action(async (partId: string, opts: { json?: boolean }, cmd: Command) => {
    const { showModel } = await import('../part-models/model-library.js');
    const detail = await readLibrary(configFor(cmd), (db) => showModel(db, partId));
    if (opts.json) return printJson(detail);
    const { part, current, history } = detail;
    process.stdout.write(`${part.category} ${part.id} (${part.name})\n`);
    process.stdout.write(
      current
        ? `current model: version ${current.version} ${current.sha256}\n`
        : 'no current model: it renders with its procedural model\n',
    );
    if (history.length) {
      const { table } = await import('./table.js');
      process.stdout.write(historyTable(history, table));
    }
  });

  subcommand(models, 'rm <partId>', {
    description: "Remove the part's model: it renders with its procedural model again (history is kept).",
    json: true,
    examples: ['render-farm models rm okgxgd18p'],
  }).action(async (partId: string, opts: { json?: boolean }, cmd: Command) => {
    const { removeModel } = await import('../part-models/model-library.js');
    const retired = await withLibrary(configFor(cmd), (db) => removeModel(db, partId));
    if (opts.json) return printJson({ partId, retired });
    process.stdout.write(
      `removed the model of ${partId} (${retired.length} version${retired.length === 1 ? '' : 's'} retired); it renders with its procedural model again\n`,
    );
  });

  subcommand(models, 'rollback <partId>', {
    description:
      'Go back to the model the part had before its current one, or to --to <version> (the newer ones are retired).',
    options: [
      ['--to <version>', 'the version to go back to: its VERSION in models show, or a sha256 prefix (4+ hex digits)'],
    ],
    json: true,
    examples: [
      'render-farm models rollback okgxgd18p',
      'render-farm models rollback okgxgd18p --to 2',
      'render-farm models rollback okgxgd18p --to 3f9a0c',
    ],
  }).action(async (partId: string, opts: { to?: string; json?: boolean }, cmd: Command) => {
    const { rollbackModel } = await import('../part-models/model-library.js');
    const r = await withLibrary(configFor(cmd), (db) => rollbackModel(db, partId, opts.to));
    if (opts.json) return printJson({ partId, ...r });
    const gone = r.retiredAll.map((m) => short(m.sha256)).join(', ');
    process.stdout.write(
      `${partId} is back on ${short(r.current.sha256)} (added ${when(r.current.createdAt)}); ${gone} retired\n`,
    );
  });

  subcommand(models, 'example <partId>', {
    description:
      "Write an example model of a part's category, sized from its specs: the authoring frame, RGB and glass materials, a case's anchors (a starting point; nothing is stored).",
    options: [
      ['--out <file.glb>', 'where to write it'],
      ['--triangles <n>', 'subdivide to about this many triangles (benchmarks)'],
      ['--texture <px>', 'a checker texture of this size on the main body'],
    ],
    json: true,
    examples: [
      'render-farm models example adp88gxul --out case.glb   # a case with its anchors',
      'render-farm models example okgxgd18p --out gpu.glb && render-farm models add okgxgd18p gpu.glb',
    ],
  }).action(
    async (
      partId: string,
      opts: { out?: string; triangles?: string; texture?: string; json?: boolean },
      cmd: Command,
    ) => {
      if (!opts.out || !/\.glb$/i.test(opts.out)) throw new UsageError('--out <file.glb> is required');
      const triangles = intFlag('triangles', opts.triangles, 12, 2_000_000);
      const texturePx = intFlag('texture', opts.texture, 8, 8192);
      const cfg = configFor(cmd);
      const part = await withDb(cfg, async (db) => {
        if (cfg.seedDemo) await (await import('../catalog/seed-demo.js')).seedDemoCatalog(db);
        const [row] = await (await import('../catalog/parts.js')).getPartsByIds(db, [partId]);
        if (!row) throw new UsageError(`part ID not found in the catalog: ${partId} (${CLI_PART_LISTING})`);
        return row;
      });
      const { exampleModel } = await import('../part-models/example-models.js');
      const glb = await (await exampleModel(part, { triangles, texturePx })).glb();
      await (await import('node:fs/promises')).writeFile(opts.out, glb);
      if (opts.json) return printJson({ partId, category: part.category, out: opts.out, bytes: glb.byteLength });
      process.stdout.write(
        `${opts.out}: an example ${part.category} model for ${partId} (${glb.byteLength.toLocaleString('en')} bytes); conventions: docs/part-models.md\n`,
      );
    },
  );

  registerModelsPreview(models);
}
