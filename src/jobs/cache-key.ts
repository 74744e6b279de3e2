/**
 * The cache key of a render: a hash of the normalised request (parts, saved state, resolved
 * options, part data versions, renderer version). Equal keys give equal pixels, so a key is
 * rendered once and shared.
 */
import { createHash } from 'node:crypto';
import type { PartIdMap } from '../model/part.js';
import type { InteractiveState } from '../model/interactive-state.js';
import { CATEGORIES } from '../model/part.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';

export interface NormalisedRequest {
  /** categories in canonical order; IDs sorted (a part listed twice stays twice) */
  parts: PartIdMap;
  state: InteractiveState | null;
  /** resolved options without what the client merely asked for */
  options: Omit<ResolvedRenderOptions, 'requestedWidth' | 'requestedHeight'>;
}

export function normaliseParts(parts: Record<string, readonly string[]>): PartIdMap {
  const out: PartIdMap = {};
  for (const c of CATEGORIES) {
    const list = parts[c];
    if (list && list.length) out[c] = [...list].sort();
  }
  return out;
}

export function normaliseRequest(parts: Record<string, readonly string[]>, state: InteractiveState | null, options: ResolvedRenderOptions): NormalisedRequest {
  const { requestedWidth: _w, requestedHeight: _h, ...rest } = options;
  return { parts: normaliseParts(parts), state, options: rest };
}

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
