/**
 * The worker's check of a render's cache key: the key is recomputed from the stored request
 * with the part data versions, part models and renderer version this worker has now. Pixels are stored under
 * a key only when they match, so a rolling deploy or a catalog edit cannot put other pixels
 * under a key. What a mismatch means:
 * - part data or a part's model changed since submission: permanent (the data the key names is
 *   gone); the job fails saying which parts changed; asking again renders the current data
 *   under a new key;
 * - the renderer differs (a rolling deploy): transient; the render is queued again for another
 *   worker, and fails after its attempts saying which versions differ.
 */
import { InternalError } from '../errors.js';
import type { NormalisedRequest } from '../model/render-request.js';
import { cacheKey } from './cache-key.js';
import { PermanentRenderError } from './errors.js';
import type { RenderRow } from './render-row.js';

/** The renderer this worker runs differs from the one the key was computed with (retryable). */
export class RendererMismatchError extends InternalError {
  constructor(message: string) {
    super(message);
    this.name = 'RendererMismatchError';
  }
}

/** Parts whose version differs between the key's and the worker's, as `id v1 -> v2`. */
export function changedParts(keyed: Record<string, number>, now: Record<string, number>): string[] {
  const ids = [...new Set([...Object.keys(keyed), ...Object.keys(now)])].sort();
  return ids.filter((id) => keyed[id] !== now[id]).map((id) => `${id} v${keyed[id] ?? '?'} -> v${now[id] ?? '?'}`);
}

/** Parts whose model differs between the key's and the worker's, as `id abcdef12 -> none`. */
export function changedModels(keyed: Record<string, string>, now: Record<string, string>): string[] {
  const ids = [...new Set([...Object.keys(keyed), ...Object.keys(now)])].sort();
  const short = (sha: string | undefined) => (sha ? sha.slice(0, 8) : 'none');
  return ids.filter((id) => keyed[id] !== now[id]).map((id) => `${id} ${short(keyed[id])} -> ${short(now[id])}`);
}

/**
 * Throws unless the render's key is the key of its request with this worker's versions and
 * part models (part ID -> sha256; empty when no part has one).
 */
export function checkCacheKey(
  row: Pick<RenderRow, 'cache_key' | 'part_versions' | 'renderer_version' | 'models'>,
  request: NormalisedRequest,
  partVersions: Record<string, number>,
  rendererVersion: string,
  models: Record<string, string> = {},
): void {
  if (cacheKey(request, partVersions, rendererVersion, models) === row.cache_key) return;
  const changed = row.part_versions ? changedParts(row.part_versions, partVersions) : [];
  if (changed.length) {
    throw new PermanentRenderError(
      `part data changed since this render was requested (${changed.join(', ')}): nothing was stored under its cache key; submit the request again to render the current data`,
    );
  }
  // rows from before part models have NULL: no model was in their key
  const remodelled = changedModels(row.models ?? {}, models);
  if (remodelled.length) {
    throw new PermanentRenderError(
      `part models changed since this render was requested (${remodelled.join(', ')}): nothing was stored under its cache key; submit the request again to render the current models`,
    );
  }
  const keyed = row.renderer_version ?? 'unknown (requested before versions were recorded)';
  throw new RendererMismatchError(
    `this worker's renderer (${rendererVersion}) differs from the one the render was requested for (${keyed}): ` +
      'nothing was stored under its cache key; it is queued again for a worker running that version (finish the rolling deploy)',
  );
}
