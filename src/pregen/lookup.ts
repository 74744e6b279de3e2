/**
 * Finding the pregenerated render of a request (POST /render-build-experimental): resolve the
 * parts, apply the visibility rules, key the combination, read the row. Never renders.
 */
import { resolveBuildParts, UnknownPartsError } from '../catalog/repository.js';
import type { Db } from '../db/database.js';
import { resolveRenderOptions, type RenderOptions } from '../model/render-options.js';
import { findEntry, type PregenEntry } from './cache-repository.js';
import { combinationKey, combinationMaterial } from './combination.js';

/** The outcome of a lookup: the key always, the entry when pregenerated. */
export interface PregenLookup {
  key: string;
  entry: PregenEntry | null;
}

/** Keys a request and reads its entry; throws UnknownPartsError naming unknown part IDs. */
export async function lookupPregenerated(db: Db, parts: Record<string, string[]>, options: RenderOptions): Promise<PregenLookup> {
  const resolved = await resolveBuildParts(db, parts);
  if (resolved.missing.length) throw new UnknownPartsError(resolved.missing);
  const key = combinationKey(combinationMaterial(resolved.parts, resolved.versions, resolveRenderOptions(options)));
  return { key, entry: await findEntry(db, key) };
}
