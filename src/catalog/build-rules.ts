/** How many parts of each category one build may list (what fits in one PC). */
import type { Category } from '../model/part.js';

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

/** Categories listed more often than allowed, with a message each. */
export function countProblems(parts: Partial<Record<Category, readonly string[]>>): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  for (const [category, ids] of Object.entries(parts) as [Category, readonly string[]][]) {
    const max = MAX_PER_CATEGORY[category];
    if (max !== undefined && ids.length > max) {
      out.push({ field: `parts.${category}`, message: `a build holds at most ${max} ${category} part${max > 1 ? 's' : ''}, got ${ids.length}` });
    }
  }
  return out;
}
