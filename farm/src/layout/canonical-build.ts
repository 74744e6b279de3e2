/**
 * The canonical form of a build: what is drawn must not depend on the order in which a
 * caller listed the part IDs (the API sorts them for the cache key, the CLI keeps a saved
 * build's order, pregen sorts them), so every build is put in this one order before anything
 * is placed. Pure and JSON in, JSON out: the stage applies it on load, tests call it directly.
 *
 * The order, per category:
 *   CaseFan   the pack with the most fans first, then by part ID. The first one is "the build's
 *             CaseFan part": it fills saved fan slots that name no `partId`, and the default
 *             placement policy puts it in the front (intake) slots before the smaller packs.
 *   others    by part ID (as the cache key sorts them): the first GPU takes the top x16 slot ...
 * A part listed twice stays twice. Malformed entries (the page gets JSON from outside) keep
 * their relative order after the well-formed ones.
 */
import type { Category, Part } from '../../../src/model/part.js';
import type { StageBuild } from '../../../src/model/stage-contract.js';

function idOf(p: unknown): string | null {
  const id = p && typeof p === 'object' ? (p as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : null;
}

/** Fans in a CaseFan pack as the renderer reads it (normalize.ts clamps quantity to 1..9). */
function packSize(p: unknown): number {
  const q = Number((p as { specs?: { quantity?: unknown } } | null)?.specs?.quantity);
  return Number.isFinite(q) ? Math.min(9, Math.max(1, Math.round(q))) : 1;
}

function byId(a: unknown, b: unknown): number {
  const x = idOf(a);
  const y = idOf(b);
  if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Parts of one category in canonical order (a stable sort: equal keys keep their order). */
export function canonicalPartOrder(category: string, list: readonly unknown[]): unknown[] {
  const sorted = [...list];
  if (category === 'CaseFan') sorted.sort((a, b) => packSize(b) - packSize(a) || byId(a, b));
  else sorted.sort(byId);
  return sorted;
}

/** `build` with every category's parts in canonical order; the state is kept as it is. */
export function canonicalBuild(build: StageBuild): StageBuild {
  if (!build || typeof build !== 'object') return build;
  const parts = build.parts as Record<string, unknown> | undefined;
  if (!parts || typeof parts !== 'object') return build;
  const out: Record<string, unknown> = {};
  for (const [category, list] of Object.entries(parts))
    out[category] = Array.isArray(list) ? canonicalPartOrder(category, list) : list;
  return { ...build, parts: out as Partial<Record<Category, Part[]>> };
}
