/**
 * The one way from a parts map to the build the stage draws: every part from the catalog, in the
 * listed order, with its current model (`build.models`), and the data versions the cache key
 * needs. Used by the API's submit path, `render-farm render`, pregen (plan and lookup) and the
 * worker's render input. The map's own rules are checked before (model/parts-map.ts).
 */
import type { Db } from '../db/database.js';
import type { InteractiveState } from '../model/interactive-state.js';
import type { PartIdMap } from '../model/part.js';
import type { StageBuild } from '../model/stage-contract.js';
import { resolveBuildParts, UnknownPartsError } from './repository.js';

export interface ResolvedBuild {
  build: StageBuild;
  /** part ID -> data version (part of the render cache key) */
  versions: Record<string, number>;
}

/** Resolves `parts` (and the saved state); throws UnknownPartsError naming IDs not in the catalog or listed under another category. */
export async function resolveBuild(db: Db, parts: PartIdMap, state: InteractiveState | null = null): Promise<ResolvedBuild> {
  const resolved = await resolveBuildParts(db, parts);
  if (resolved.missing.length) throw new UnknownPartsError(resolved.missing);
  // no models: no `models` field, so a build without models is the build it always was
  const models = Object.keys(resolved.models).length ? { models: resolved.models } : {};
  return { build: { parts: resolved.parts, state, ...models }, versions: resolved.versions };
}
