/**
 * Where pregen's part combinations come from: saved builds (`--builds all|CODE,...`), a
 * cartesian matrix (`--matrix "PCCase=a,b GPU=x,y"`, `*` = every part of the category), or a
 * file (`--from list.json|list.ndjson`: part maps, or objects with a `parts` map).
 * Saved builds contribute their parts only: the legacy endpoint has no interactive state, so
 * the renders it serves are drawn with the stage's default fan and radiator placement.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isCategory, type Category } from '../model/part.js';
import type { Db } from '../db/database.js';
import { UserError } from '../errors.js';

/** Bad pregen input: a usage error (exit 2). */
export class PregenInputError extends UserError {
  constructor(message: string) {
    super('invalid_pregen_input', message);
    this.name = 'PregenInputError';
  }
}

/** One combination of parts to pregenerate. */
export interface PartMapSource {
  /** short human label: a share code, `matrix #3`, `list.ndjson:7` */
  label: string;
  /** recorded on the cache row: `build:CODE`, `matrix`, `file:<name>` */
  source: string;
  parts: Record<string, string[]>;
}

/** Saved builds: `all`, or share codes. Unknown codes are an input error naming them. */
export async function buildSources(db: Db, codes: 'all' | readonly string[]): Promise<PartMapSource[]> {
  let q = db.db.selectFrom('builds').select(['share_code', 'parts']).orderBy('share_code');
  if (codes !== 'all') q = q.where('share_code', 'in', codes.length ? [...codes] : ['']);
  const rows = await q.execute();
  if (codes !== 'all') {
    const found = new Set(rows.map((r) => r.share_code));
    const missing = codes.filter((c) => !found.has(c));
    if (missing.length)
      throw new PregenInputError(`no saved build with share code ${missing.join(', ')} (see: render-farm builds list)`);
  }
  return rows.map((r) => ({
    label: r.share_code,
    source: `build:${r.share_code}`,
    parts: r.parts as Record<string, string[]>,
  }));
}

/** A parsed `--matrix`: per category, the alternatives (each alternative a list of IDs). */
export type Matrix = { category: Category; options: string[][] }[];

/**
 * Parses `CAT=a,b CAT2=x` (space-separated axes; comma-separated alternatives; `+` joins IDs
 * that go together, e.g. `CaseFan=f1+f2,f3`; `*` = every part of the category).
 */
export function parseMatrix(spec: string): { category: Category; values: string[] }[] {
  const axes: { category: Category; values: string[] }[] = [];
  for (const token of spec.trim().split(/\s+/).filter(Boolean)) {
    const m = /^([A-Za-z]+)=(.+)$/.exec(token);
    if (!m) throw new PregenInputError(`--matrix takes "CATEGORY=id,id CATEGORY=id ...", got "${token}"`);
    const category = m[1]!;
    if (!isCategory(category)) throw new PregenInputError(`--matrix: unknown category ${category}`);
    if (axes.some((a) => a.category === category))
      throw new PregenInputError(`--matrix: ${category} is given twice; list its alternatives once, comma-separated`);
    const values = m[2]!
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    if (values.length === 0) throw new PregenInputError(`--matrix: ${category} has no IDs`);
    axes.push({ category, values });
  }
  if (axes.length === 0) throw new PregenInputError('--matrix is empty');
  return axes;
}

/** Expands `*` from the catalog. */
async function expandMatrix(db: Db, axes: { category: Category; values: string[] }[]): Promise<Matrix> {
  const out: Matrix = [];
  for (const a of axes) {
    let values = a.values;
    if (values.includes('*')) {
      const rows = await db.db
        .selectFrom('parts')
        .select('id')
        .where('category', '=', a.category)
        .orderBy('id')
        .execute();
      values = [...new Set([...values.filter((v) => v !== '*'), ...rows.map((r) => r.id)])];
    }
    out.push({ category: a.category, options: values.map((v) => v.split('+').filter(Boolean)) });
  }
  return out;
}

/** The cartesian product, in order, at most `limit` combinations (generated, never all held). */
export function* matrixCombinations(matrix: Matrix, limit = Infinity): Generator<Record<string, string[]>> {
  const total = matrix.reduce((n, a) => n * a.options.length, 1);
  const count = Math.min(total, limit);
  for (let i = 0; i < count; i++) {
    const parts: Record<string, string[]> = {};
    let rest = i;
    // the last axis varies fastest, like nested loops written in the order given
    for (let k = matrix.length - 1; k >= 0; k--) {
      const axis = matrix[k]!;
      parts[axis.category] = axis.options[rest % axis.options.length]!;
      rest = Math.floor(rest / axis.options.length);
    }
    yield parts;
  }
}

/** Matrix combinations as sources, plus the full product size (to say what `--limit` cut). */
export async function matrixSources(
  db: Db,
  spec: string,
  limit?: number,
): Promise<{ sources: PartMapSource[]; total: number }> {
  const matrix = await expandMatrix(db, parseMatrix(spec));
  const total = matrix.reduce((n, a) => n * a.options.length, 1);
  const sources = [...matrixCombinations(matrix, limit)].map((parts, i) => ({
    label: `matrix #${i + 1}`,
    source: 'matrix',
    parts,
  }));
  return { sources, total };
}

function partMapOf(value: unknown, where: string): Record<string, string[]> {
  const obj = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const map = obj && obj.parts && typeof obj.parts === 'object' ? (obj.parts as Record<string, unknown>) : obj;
  if (!map) throw new PregenInputError(`${where}: expected a part map like {"PCCase": ["id"], "GPU": ["id"]}`);
  const out: Record<string, string[]> = {};
  for (const [category, ids] of Object.entries(map)) {
    const list = typeof ids === 'string' ? [ids] : ids;
    if (!Array.isArray(list) || list.some((id) => typeof id !== 'string' || id === '')) {
      throw new PregenInputError(`${where}: ${category} must be a list of part IDs`);
    }
    out[category] = list as string[];
  }
  return out;
}

/** Part maps from a JSON array file or an NDJSON file (one map per line; blank and # lines skipped). */
export async function fileSources(file: string): Promise<PartMapSource[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new PregenInputError(`--from ${file}: ${(err as Error).message}`);
  }
  const name = path.basename(file);
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(trimmed);
    } catch (err) {
      throw new PregenInputError(`--from ${file}: ${(err as Error).message}`);
    }
    return (list as unknown[]).map((v, i) => ({
      label: `${name}[${i}]`,
      source: `file:${name}`,
      parts: partMapOf(v, `${name}[${i}]`),
    }));
  }
  const out: PartMapSource[] = [];
  text.split('\n').forEach((line, i) => {
    const l = line.trim();
    if (!l || l.startsWith('#')) return;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch (err) {
      throw new PregenInputError(`--from ${file} line ${i + 1}: ${(err as Error).message}`);
    }
    out.push({ label: `${name}:${i + 1}`, source: `file:${name}`, parts: partMapOf(v, `${name} line ${i + 1}`) });
  });
  return out;
}
