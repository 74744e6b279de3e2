/**
 * `render-farm pregen` as a library function: opens the database and the artifact store, plans,
 * runs (or lists, with dry-run) and reports through the chosen output (ink UI on a TTY, plain
 * lines, or a JSON summary). Returns the exit code: 0 all done, 1 an item failed, 130 interrupted.
 */
import type { Config } from '../config.js';
import type { Category } from '../model/part.js';
import type { Db } from '../db/database.js';
import type { RenderEngine } from '../render/engine.js';
import { formatDuration } from './format.js';
import { planPregen, type PlanItem, type PlanOptions } from './plan.js';
import { plainReporter } from './plain-reporter.js';
import { ProgressStore, type PregenObserver } from './progress.js';
import type { FailedItem } from './runner.js';
import { buildSources, fileSources, matrixSources, PregenInputError, type PartMapSource } from './sources.js';
import type { ArtifactStore } from '../storage/artifact-store.js';

/** Where combinations come from (one or more). */
export interface PregenInputs {
  builds?: 'all' | string[];
  matrix?: string;
  from?: string;
  /** at most this many combinations (matrix first, then the rest) */
  limit?: number;
}

export interface PregenCommandOptions {
  cfg: Config;
  inputs: PregenInputs;
  /** render part thumbnails instead of combinations */
  thumbnails?: { categories?: Category[]; force?: boolean };
  variants: Omit<PlanOptions, 'rendererVersion'>;
  concurrency: number;
  farm: boolean;
  dryRun: boolean;
  output: 'ink' | 'plain' | 'json';
  write: (text: string) => void;
  signal: AbortSignal;
  /** tests inject an engine factory */
  createEngine?: () => Promise<RenderEngine>;
}

/** Gathers the combinations of every input, applying the limit. */
export async function collectSources(
  db: Db,
  inputs: PregenInputs,
): Promise<{ sources: PartMapSource[]; notes: string[] }> {
  const notes: string[] = [];
  const sources: PartMapSource[] = [];
  if (!inputs.builds && !inputs.matrix && !inputs.from) {
    throw new PregenInputError(
      'say what to pregenerate: --builds all|CODE,..., --matrix "CAT=id,id ...", --from file.json, or --thumbnails',
    );
  }
  if (inputs.matrix) {
    const m = await matrixSources(db, inputs.matrix, inputs.limit);
    if (m.total > m.sources.length)
      notes.push(`--limit ${inputs.limit}: the first ${m.sources.length} of ${m.total} matrix combinations`);
    sources.push(...m.sources);
  }
  if (inputs.builds) sources.push(...(await buildSources(db, inputs.builds)));
  if (inputs.from) sources.push(...(await fileSources(inputs.from)));
  if (inputs.limit !== undefined && sources.length > inputs.limit) {
    notes.push(`--limit ${inputs.limit}: ${sources.length - inputs.limit} combinations left out`);
    sources.length = inputs.limit;
  }
  return { sources, notes };
}

function dryRunText(items: PlanItem[]): string {
  const lines = items.map((i) => {
    const what = i.action === 'render' ? 'would render' : i.action === 'invalid' ? 'invalid' : i.action;
    const tail =
      i.action === 'render' ? `  ${i.frames} frames  key ${i.key.slice(0, 12)}` : i.reason ? `: ${i.reason}` : '';
    return `${what.padEnd(12)} #${i.index} ${i.label}  ${i.variant}${tail}`;
  });
  const n = items.filter((i) => i.action === 'render').length;
  return `${lines.join('\n')}\ndry run: ${n} of ${items.length} items would render, ${items.filter((i) => i.action === 'render').reduce((s, i) => s + i.frames, 0)} frames\n`;
}

/** Output observers for the chosen mode, and how to close them. */
async function outputs(o: PregenCommandOptions): Promise<{ observers: PregenObserver[]; close: () => Promise<void> }> {
  if (o.output === 'plain') return { observers: [plainReporter((l) => o.write(l + '\n'))], close: async () => {} };
  if (o.output === 'json') return { observers: [], close: async () => {} };
  const store = new ProgressStore(100);
  const { mountPregenUi } = await import('./ui/mount.js');
  const ui = mountPregenUi(store);
  return { observers: [store], close: () => ui.stop() };
}

function summaryText(
  s: { rendered: number; failed: FailedItem[]; cancelled: number; interrupted: boolean; elapsedMs: number },
  extra: string,
): string {
  const lines = [`pregen: ${s.rendered} rendered${extra}, ${s.failed.length} failed in ${formatDuration(s.elapsedMs)}`];
  for (const f of s.failed) lines.push(`failed: #${f.index} ${f.label} (${f.variant}): ${f.reason}`);
  if (s.interrupted) lines.push(`interrupted: ${s.cancelled} not rendered; run the same command again to resume`);
  return lines.join('\n') + '\n';
}

function exitCode(s: { failed: unknown[]; interrupted: boolean }): number {
  return s.interrupted ? 130 : s.failed.length ? 1 : 0;
}

/** Runs the command; resolves with the exit code. Setup failures (no Chromium, bad input) throw. */
export async function pregenCommand(o: PregenCommandOptions): Promise<number> {
  const { openDatabase } = await import('../db/database.js');
  const db = await openDatabase(o.cfg, { migrate: true });
  try {
    if (o.cfg.seedDemo) {
      const { seedDemoCatalog } = await import('../catalog/seed-demo.js');
      await seedDemoCatalog(db);
    }
    const { openArtifactStore } = await import('../storage/open-artifact-store.js');
    const store = await openArtifactStore(o.cfg);
    const createEngine =
      o.createEngine ?? (async () => (await import('../render/engine.js')).createRenderEngine(o.cfg));
    if (o.thumbnails) return await thumbnails(o, db, store, createEngine);

    const { rendererVersion } = await import('../render/renderer-version.js');
    const version = await rendererVersion();
    const { sources, notes } = await collectSources(db, o.inputs);
    const items = await planPregen(db, sources, { ...o.variants, rendererVersion: version });
    if (o.dryRun) {
      if (o.output === 'json')
        o.write(JSON.stringify({ dryRun: true, notes, items: items.map(itemJson) }, null, 2) + '\n');
      else o.write(notes.map((n) => `note: ${n}\n`).join('') + dryRunText(items));
      return items.some((i) => i.action === 'invalid') ? 1 : 0;
    }
    const out = await outputs(o);
    for (const n of notes) out.observers.forEach((ob) => ob.notice?.(n));
    const { runPregen } = await import('./runner.js');
    let summary;
    try {
      summary = await runPregen(items, {
        cfg: o.cfg,
        db,
        store,
        rendererVersion: version,
        concurrency: o.concurrency,
        farm: o.farm,
        signal: o.signal,
        observers: out.observers,
        createEngine,
      });
    } finally {
      await out.close();
    }
    if (o.output === 'json') o.write(JSON.stringify({ ...summary, notes, items: items.map(itemJson) }, null, 2) + '\n');
    else if (o.output === 'plain') {
      o.write(
        summaryText(
          summary,
          `, ${summary.cached} already pregenerated, ${summary.duplicates} duplicates (${summary.framesPerSecond} frames/s)`,
        ),
      );
    }
    return exitCode(summary);
  } finally {
    await db.close();
  }
}

function itemJson(i: PlanItem) {
  return {
    index: i.index,
    label: i.label,
    source: i.source,
    variant: i.variant,
    action: i.action,
    reason: i.reason,
    key: i.key || null,
    parts: i.partIds,
    frames: i.frames,
  };
}

async function thumbnails(
  o: PregenCommandOptions,
  db: Db,
  store: ArtifactStore,
  createEngine: () => Promise<RenderEngine>,
): Promise<number> {
  const { partsNeedingThumbnails } = await import('../thumbnails/part-thumbnail.js');
  const parts = await partsNeedingThumbnails(db, { categories: o.thumbnails!.categories, force: o.thumbnails!.force });
  if (o.dryRun) {
    const text = parts.map((p) => `would render thumbnail ${p.id}  ${p.category}  ${p.name}`).join('\n');
    o.write(
      o.output === 'json'
        ? JSON.stringify({ dryRun: true, parts: parts.map((p) => p.id) }, null, 2) + '\n'
        : `${text}${text ? '\n' : ''}dry run: ${parts.length} thumbnails would render\n`,
    );
    return 0;
  }
  const out = await outputs(o);
  const { runThumbnails } = await import('./thumbnail-run.js');
  let summary;
  try {
    summary = await runThumbnails(parts, {
      db,
      store,
      concurrency: o.concurrency,
      signal: o.signal,
      observers: out.observers,
      createEngine,
    });
  } finally {
    await out.close();
  }
  if (o.output === 'json') o.write(JSON.stringify(summary, null, 2) + '\n');
  else if (o.output === 'plain') o.write(summaryText(summary, ' thumbnails'));
  return exitCode(summary);
}
