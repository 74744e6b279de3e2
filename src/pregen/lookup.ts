/**
 * Finding the pregenerated render of a request (POST /render-build-experimental): resolve the
 * parts, apply the visibility rules, key the combination, read the row. Never renders.
 */
import { resolveBuild } from '../catalog/resolve-build.js';
import type { Db } from '../db/database.js';
import type { PartIdMap } from '../model/part.js';
import { resolveRenderOptions, type RenderOptions } from '../model/render-options.js';
import { findEntry, type PregenEntry } from './cache-repository.js';
import { combinationKey, combinationMaterial } from './combination.js';

/** The outcome of a lookup: the key always, the entry when pregenerated. */
export interface PregenLookup {
  key: string;
  entry: PregenEntry | null;
}

/** Keys a request and reads its entry; throws UnknownPartsError naming unknown part IDs. */
export async function lookupPregenerated(db: Db, parts: PartIdMap, options: RenderOptions): Promise<PregenLookup> {
  const resolved = await resolveBuild(db, parts);
  const key = combinationKey(
    combinationMaterial(resolved.build.parts, resolved.versions, resolveRenderOptions(options)),
  );
  return { key, entry: await findEntry(db, key) };
}
