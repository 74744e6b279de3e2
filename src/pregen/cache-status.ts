/**
 * The pregenerated cache for the web console's pregen page. The entries are what `pregen ls`
 * lists (listCache, cache-admin.ts: every format, profile and size, stale or current), and the
 * saved builds' coverage is what `pregen --builds all --formats F --profiles P --stale --dry-run`
 * would plan, for every format and profile at the default sizes: how many builds are current,
 * stale or missing in each. Filling one of those variants runs the same plan on the farm.
 */
import type { Db } from '../db/database.js';
import { FORMATS, PROFILES, type Format, type Profile } from '../model/render-defaults.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { listCache, type ListedEntry } from './cache-admin.js';
import { cacheTotals, existingKeys } from './cache-repository.js';
import { runFarm } from './farm-executor.js';
import { planPregen, type PlanItem } from './plan.js';
import { buildSources } from './sources.js';

/** The saved builds in one variant (a format and profile at its default size). */
export interface Coverage {
  format: Format;
  profile: Profile;
  size: string;
  current: number;
  stale: number;
  missing: number;
}

/** What the console's pregen page shows. */
export interface CacheOverview {
  rendererVersion: string;
  /** every entry in the cache (not only the listed ones) */
  totals: { entries: number; bytes: number };
  /** newest first, as `pregen ls` lists them, at most `limit` */
  entries: ListedEntry[];
  coverage: Coverage[];
}

async function plan(db: Db, rendererVersion: string, formats: Format[], profiles: Profile[]): Promise<PlanItem[]> {
  return planPregen(db, await buildSources(db, 'all'), {
    base: {},
    formats,
    profiles,
    sizes: [],
    stale: true,
    rendererVersion,
  });
}

/**
 * Each plan item's state: with `stale` on, the plan renders stale and missing items and
 * marks current ones `cached`; a duplicate (another build with the same visible parts) shares
 * the state of the first item of its key. Invalid builds are left out.
 */
function itemStates(
  items: PlanItem[],
  existing: Set<string>,
): { item: PlanItem; state: 'current' | 'stale' | 'missing' }[] {
  const byKey = new Map<string, 'current' | 'stale' | 'missing'>();
  for (const i of items) {
    if (i.action === 'cached') byKey.set(i.key, 'current');
    if (i.action === 'render') byKey.set(i.key, existing.has(i.key) ? 'stale' : 'missing');
  }
  return items.filter((i) => byKey.has(i.key)).map((item) => ({ item, state: byKey.get(item.key)! }));
}

/** The cache as `pregen ls` lists it, and the saved builds' coverage in every format and profile. */
export async function cacheOverview(db: Db, rendererVersion: string, limit: number): Promise<CacheOverview> {
  const [entries, totals, items] = await Promise.all([
    listCache(db, { limit }, rendererVersion),
    cacheTotals(db),
    plan(db, rendererVersion, [...FORMATS], [...PROFILES]),
  ]);
  // planning with `stale` marks stale entries `render` like missing ones: an existing key tells them apart
  const existing = new Set((await existingKeys(db, items.map((i) => i.key).filter(Boolean))).keys());
  const coverage = new Map<string, Coverage>();
  for (const { item, state } of itemStates(items, existing)) {
    const o = item.options;
    const id = `${o.format}/${o.profile}`;
    const c = coverage.get(id) ?? {
      format: o.format,
      profile: o.profile as Profile,
      size: `${o.width}x${o.height}`,
      current: 0,
      stale: 0,
      missing: 0,
    };
    c[state]++;
    coverage.set(id, c);
  }
  return { rendererVersion, totals, entries, coverage: [...coverage.values()] };
}

/**
 * Queues the variant's stale and missing entries on the farm (`pregen --builds all --farm
 * --stale --formats F --profiles P`) and, in the background, copies each into the cache as it
 * finishes (until `signal` aborts: a rerun picks up what is left). Returns how many were queued.
 */
export async function fillCache(
  deps: { db: Db; store: ArtifactStore; rendererVersion: string },
  variant: { format: Format; profile: Profile },
  signal: AbortSignal,
  onError: (err: Error) => void,
): Promise<number> {
  const items = (await plan(deps.db, deps.rendererVersion, [variant.format], [variant.profile])).filter(
    (i) => i.action === 'render',
  );
  if (items.length) void runFarm(deps, items, { signal, observer: {} }).catch(onError);
  return items.length;
}
