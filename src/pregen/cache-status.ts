/**
 * The pregenerated cache against the saved builds (the web console's pregen page): every saved
 * build in each format at its default size and the fast profile, as `ok` (cached by the
 * current renderer with the parts' current models), `stale` or `missing`; and filling the
 * stale and missing ones through the farm (what `pregen --builds all --farm --stale` does).
 */
import type { Db } from '../db/database.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { existingKeys } from './cache-repository.js';
import { runFarm } from './farm-executor.js';
import { planPregen, type PlanItem, type PlanOptions } from './plan.js';
import { buildSources } from './sources.js';

/** One build in one variant. */
export interface CacheStatusEntry {
  build: string;
  format: string;
  size: string;
  status: 'ok' | 'stale' | 'missing';
}

/** The variants the console checks and fills: both formats, default sizes, the fast profile. */
const VARIANTS: Omit<PlanOptions, 'rendererVersion'> = { base: {}, formats: ['video', 'sprite'], profiles: ['fast'], sizes: [], stale: true };

async function plan(db: Db, rendererVersion: string): Promise<PlanItem[]> {
  return planPregen(db, await buildSources(db, 'all'), { ...VARIANTS, rendererVersion });
}

/** Each saved build's cache entries as they stand (invalid builds are left out). */
export async function cacheStatus(db: Db, rendererVersion: string): Promise<CacheStatusEntry[]> {
  const items = (await plan(db, rendererVersion)).filter((i) => i.action === 'render' || i.action === 'cached' || i.action === 'duplicate');
  const existing = await existingKeys(db, items.map((i) => i.key));
  return items.map((i) => {
    const status = i.action === 'render' ? (existing.has(i.key) ? 'stale' : 'missing') : 'ok';
    return { build: i.label, format: i.options.format, size: `${i.options.width}x${i.options.height}`, status };
  });
}

/**
 * Queues the stale and missing entries on the farm and, in the background, copies each into
 * the cache as it finishes (until `signal` aborts: a rerun picks up what is left). Returns how
 * many were queued.
 */
export async function fillCache(deps: { db: Db; store: ArtifactStore; rendererVersion: string }, signal: AbortSignal, onError: (err: Error) => void): Promise<number> {
  const items = (await plan(deps.db, deps.rendererVersion)).filter((i) => i.action === 'render');
  if (items.length) void runFarm(deps, items, { signal, observer: {} }).catch(onError);
  return items.length;
}
