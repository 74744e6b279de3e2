/**
 * A build's parts map (`{"PCCase": ["id"], "GPU": ["id", "id"]}`): the one set of rules every
 * entry point applies (the API, `render-farm render`, pregen, the worker's stored request).
 * Problems come back structured (code, summary, field + message each) so the API keeps its error
 * codes and bodies and the CLI turns them into usage lines. Whether the IDs exist is the
 * catalog's question (catalog/resolve-build.ts).
 *
 * The case rule: a map without a PCCase is valid everywhere; the stage draws its default case
 * (the API contract, shared with the public BuildCores client).
 */
import { z } from 'zod';
import { CATEGORIES, isCategory, type Category, type PartIdMap } from './part.js';
import { text } from './text.js';

/** How many parts of each category one build may list (what fits in one PC). */
export const MAX_PER_CATEGORY: Record<Category, number> = {
  PCCase: 1,
  Motherboard: 1,
  CPU: 1,
  CPUCooler: 1,
  GPU: 2,
  RAM: 4,
  Storage: 8,
  PSU: 1,
  CaseFan: 12,
};

/** The shape of a map as a client sends it: IDs of 1 to 64 characters, 1 to 16 per category (category names and counts are checked by checkPartsMap, for their own error codes). */
export const requestedPartsSchema = z
  .record(text(), z.array(text().min(1).max(64)).min(1).max(16))
  .meta({ description: 'part IDs grouped by category, e.g. {"GPU": ["z7pyphm9k"]}' });

/** One thing wrong with a map, at a field such as `parts.GPU`. */
export type PartsMapProblem = { field: string; message: string };

/** Why a map is refused: the API's error code, a one-line summary, and each problem. */
export interface PartsMapRefusal {
  code: 'invalid_body' | 'invalid_category' | 'invalid_parts';
  message: string;
  problems: PartsMapProblem[];
}

export type PartsMapCheck = { ok: true; parts: PartIdMap } | { ok: false; refusal: PartsMapRefusal };

/** Categories listed more often than allowed, with a message each. */
export function countProblems(parts: Partial<Record<Category, readonly string[]>>): PartsMapProblem[] {
  const out: PartsMapProblem[] = [];
  for (const [category, ids] of Object.entries(parts) as [Category, readonly string[]][]) {
    const max = MAX_PER_CATEGORY[category];
    if (max !== undefined && ids.length > max) {
      out.push({
        field: `parts.${category}`,
        message: `a build holds at most ${max} ${category} part${max > 1 ? 's' : ''}, got ${ids.length}`,
      });
    }
  }
  return out;
}

/** The rules past the shape, in the order the API reports them: not empty, known categories, counts. */
export function checkPartsMap(parts: Record<string, readonly string[]>): PartsMapCheck {
  const categories = Object.keys(parts);
  if (categories.length === 0)
    return refuse('invalid_body', 'parts must not be empty', [{ field: 'parts', message: 'empty' }]);
  const bad = categories.filter((c) => !isCategory(c));
  if (bad.length) {
    return refuse(
      'invalid_category',
      `unknown categor${bad.length > 1 ? 'ies' : 'y'} ${bad.join(', ')}: one of ${CATEGORIES.join(', ')}`,
      bad.map((c) => ({ field: `parts.${c}`, message: 'unknown category' })),
    );
  }
  const counts = countProblems(parts);
  if (counts.length) return refuse('invalid_parts', counts.map((c) => c.message).join('; '), counts);
  return { ok: true, parts: parts as PartIdMap };
}

/** Every rule, from an unchecked value (a `--build` file, a pregen list): the shape, then checkPartsMap. */
export function parsePartsMap(value: unknown): PartsMapCheck {
  const shape = requestedPartsSchema.safeParse(value);
  if (!shape.success) {
    const problems = shape.error.issues.map((i) => ({
      field: ['parts', ...i.path.map(String)].join('.'),
      message: i.message,
    }));
    return refuse('invalid_body', problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems);
  }
  return checkPartsMap(shape.data);
}

function refuse(code: PartsMapRefusal['code'], message: string, problems: PartsMapProblem[]): PartsMapCheck {
  return { ok: false, refusal: { code, message, problems } };
}
