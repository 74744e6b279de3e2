/**
 * The cache key of a render: a hash of the normalised request (parts, saved state, resolved
 * options: src/model/render-request.ts), part data versions, the renderer version and the
 * sha256 of each part model used. Equal keys give equal pixels, so a key is rendered once and
 * shared.
 */
import { createHash } from 'node:crypto';
import type { NormalisedRequest } from '../model/render-request.js';

/** JSON with object keys sorted at every level, so equal values serialise equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The key of `req` drawn from these part data versions, renderer and part models (part ID ->
 * sha256 of the prepared GLB). `models` enters the hash only when it names a model, so a build
 * without models keeps the key it had before models existed (its cached renders stay valid).
 */
export function cacheKey(
  req: NormalisedRequest,
  partVersions: Record<string, number>,
  rendererVersion: string,
  models: Record<string, string> = {},
): string {
  const versions = Object.fromEntries(Object.entries(partVersions).sort(([a], [b]) => (a < b ? -1 : 1)));
  // canonicalJson leaves out undefined fields: no models, the pre-models material byte for byte
  const material = {
    req,
    versions,
    renderer: rendererVersion,
    models: Object.keys(models).length ? models : undefined,
  };
  return createHash('sha256').update(canonicalJson(material)).digest('hex');
}
