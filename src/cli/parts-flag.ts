/**
 * `--parts` (render, builds create): part IDs by category. One grammar for every command:
 * each value holds one or more `CAT=id,id` pairs separated by spaces or semicolons, and the
 * flag may repeat.
 */
import { CATEGORIES, isCategory } from '../model/part.js';
import { UsageError } from './errors.js';

/** Collects repeatable `--parts` values. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * Parses `--parts` values: each holds one or more `CAT=id,id` pairs separated by spaces or
 * semicolons (`--parts "GPU=a,b CPU=c"`); a category given twice accumulates.
 */
export function parsePartsFlags(values: string[]): Record<string, string[]> {
  const parts: Record<string, string[]> = {};
  for (const value of values) {
    for (const pair of value.split(/[\s;]+/).filter(Boolean)) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError(`--parts expects CATEGORY=id[,id...], got "${pair}"`);
      const category = pair.slice(0, eq);
      if (!isCategory(category)) {
        throw new UsageError(`unknown category "${category}" in --parts: use one of ${CATEGORIES.join(', ')}`);
      }
      const ids = pair
        .slice(eq + 1)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (!ids.length) throw new UsageError(`--parts ${category}= lists no part IDs`);
      (parts[category] ??= []).push(...ids);
    }
  }
  return parts;
}
