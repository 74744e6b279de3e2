/**
 * A render request: a build's parts and its render options. The request as a client sends it
 * (`renderRequestSchema`: POST /render-build and /internal-render, the legacy endpoint), and the
 * normalised request a render row stores in `renders.request` (`normalisedRequestSchema`):
 * canonical parts, the saved state, every option resolved. The cache key hashes the
 * normalised form; the worker parses it back with the same schema.
 */
import { z } from 'zod';
import { interactiveStateSchema } from './interactive-state.js';
import { requestedPartsSchema } from './parts-map.js';
import { CATEGORIES, type PartIdMap } from './part.js';
import {
  renderOptionsRules,
  renderOptionsShape,
  resolvedRenderOptionsSchema,
  type ResolvedRenderOptions,
} from './render-options.js';
import type { InteractiveState } from './interactive-state.js';

/** A render request as a client sends it: parts plus render options, every rule checked. */
export const renderRequestSchema = z
  .object({ parts: requestedPartsSchema, ...renderOptionsShape })
  .strict()
  .superRefine(renderOptionsRules);
export type RenderRequest = z.output<typeof renderRequestSchema>;

/** Part IDs by known category. */
export const partIdMapSchema = z.partialRecord(z.enum(CATEGORIES), z.array(z.string().min(1)));

/** The request a render row stores: what its pixels depend on besides part data and the renderer. */
export const normalisedRequestSchema = z.object({
  /** categories in canonical order; IDs sorted (a part listed twice stays twice) */
  parts: partIdMapSchema,
  state: interactiveStateSchema.nullable(),
  options: resolvedRenderOptionsSchema,
});
export type NormalisedRequest = z.output<typeof normalisedRequestSchema>;

export function normaliseParts(parts: Record<string, readonly string[]>): PartIdMap {
  const out: PartIdMap = {};
  for (const c of CATEGORIES) {
    const list = parts[c];
    if (list && list.length) out[c] = [...list].sort();
  }
  return out;
}

export function normaliseRequest(
  parts: Record<string, readonly string[]>,
  state: InteractiveState | null,
  options: ResolvedRenderOptions,
): NormalisedRequest {
  return { parts: normaliseParts(parts), state, options };
}
