/**
 * The one way from a parts map to the build the stage draws: every part from the catalog, in the
 * listed order, with its current model (`build.models`), and the data versions the cache key
 * needs. Used by the API's submit path, `render-farm render`, pregen (plan and lookup) and the
 * worker's render input. The map's own rules are checked before (model/parts-map.ts).
 */
import type { Db } from '../db/database.js';
import { NotFoundError } from '../errors.js';
import type { InteractiveState } from '../model/interactive-state.js';
import { isCategory, type Category, type Part, type PartIdMap } from '../model/part.js';
import type { StageBuild } from '../model/stage-contract.js';

/** Parts of a build resolved for rendering. */
export interface ResolvedParts {
  /** per category, in the listed order; an ID listed twice gives two entries */
  parts: Partial<Record<Category, Part[]>>;
  /** IDs not found, or found under another category (as `id`) */
  missing: string[];
  /** part ID -> data version (part of the render cache key) */
  versions: Record<string, number>;
  /** part ID -> sha256 of its current model (part of the render cache key), for the parts that have one */
  models: Record<string, string>;
}

/** Parts that are not in the catalog: 404 `part_not_found` naming them. */
export class UnknownPartsError extends NotFoundError {
  constructor(public readonly ids: string[]) {
    super('part_not_found', `unknown part ID${ids.length > 1 ? 's' : ''}: ${ids.join(', ')}`, {
      details: ids.map((id) => ({ field: 'parts', message: 'not found', id })),
    });
    this.name = 'UnknownPartsError';
  }
}

/** Resolves a category -> IDs map to full parts; unknown categories' IDs count as missing. */
export async function resolveBuildParts(
  db: Db,
  partIdMap: PartIdMap | Record<string, readonly string[]>,
): Promise<ResolvedParts> {
  const entries = Object.entries(partIdMap) as [string, readonly string[] | undefined][];
  const unique = [...new Set(entries.flatMap(([, ids]) => ids ?? []))];
  // one statement for the parts and their current models: the submit path counts round trips,
  // and the worker's key check must see parts and models as of one moment
  const rows = unique.length
    ? await db.db
        .selectFrom('parts as p')
        .leftJoin('current_part_models as cm', 'cm.part_id', 'p.id')
        .select(['p.id', 'p.category', 'p.name', 'p.specs', 'p.version', 'cm.sha256 as model'])
        .where('p.id', 'in', unique)
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const parts: Partial<Record<Category, Part[]>> = {};
  const missing: string[] = [];
  const versions: Record<string, number> = {};
  const models: Record<string, string> = {};
  for (const [category, ids] of entries) {
    for (const id of ids ?? []) {
      const row = byId.get(id);
      if (!row || !isCategory(category) || row.category !== category) {
        missing.push(id);
        continue;
      }
      (parts[category] ??= []).push({ id: row.id, category: row.category, name: row.name, specs: row.specs } as Part);
      versions[id] = row.version;
      if (row.model) models[id] = row.model;
    }
  }
  return { parts, missing: [...new Set(missing)], versions, models };
}

export interface ResolvedBuild {
  build: StageBuild;
  /** part ID -> data version (part of the render cache key) */
  versions: Record<string, number>;
}

/** Resolves `parts` (and the saved state); throws UnknownPartsError naming IDs not in the catalog or listed under another category. */
export async function resolveBuild(
  db: Db,
  parts: PartIdMap,
  state: InteractiveState | null = null,
): Promise<ResolvedBuild> {
  const resolved = await resolveBuildParts(db, parts);
  if (resolved.missing.length) throw new UnknownPartsError(resolved.missing);
  // no models: no `models` field, so a build without models is the build it always was
  const models = Object.keys(resolved.models).length ? { models: resolved.models } : {};
  return { build: { parts: resolved.parts, state, ...models }, versions: resolved.versions };
}
