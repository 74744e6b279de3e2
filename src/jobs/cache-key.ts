/**
 * The cache key of a render: a hash of the normalised request (parts, saved state, resolved
 * options: src/model/render-request.ts), part data versions and the renderer version. Equal
 * keys give equal pixels, so a key is rendered once and shared.
 */
import { createHash } from 'node:crypto';
import type { PartIdMap } from '../model/part.js';
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

export function cacheKey(req: NormalisedRequest, partVersions: Record<string, number>, rendererVersion: string): string {
  const versions = Object.fromEntries(Object.entries(partVersions).sort(([a], [b]) => (a < b ? -1 : 1)));
  return createHash('sha256').update(canonicalJson({ req, versions, renderer: rendererVersion })).digest('hex');
}
