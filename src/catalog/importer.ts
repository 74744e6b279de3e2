/**
 * Imports BuildCores OpenDB records (`<dir>/open-db/<Category>/<uuid>.json`, or `<dir>` being
 * the `open-db` folder itself) into `parts`. Each record is mapped by opendb-map.ts, kept
 * whole in `raw`, and upserted in multi-row batches; `version` is bumped only when the
 * normalised specs change, so a re-import leaves cached renders valid. Bad files and
 * unusable records are counted with example reasons, never thrown.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { UserError } from '../errors.js';
import { isOpenDbId, mapOpenDbRecord, partIdFromOpenDbId } from './opendb-map.js';
import { CATEGORIES, type Category } from '../model/part.js';

/** Reported after each batch. */
export interface ImportProgress {
  category: Category;
  /** records of this category handled so far */
  done: number;
  /** records of this category in total */
  total: number;
  /** over all categories */
  overallDone: number;
  overallTotal: number;
}

/** Tuning and callbacks of importOpenDb. */
export interface ImportOptions {
  /** only these categories (default all nine) */
  categories?: readonly Category[];
  /** rows per INSERT (default 500) */
  batchSize?: number;
  /** files read at once (default 64) */
  concurrency?: number;
  onProgress?: (p: ImportProgress) => void;
  signal?: AbortSignal;
}

/** Why records were skipped, with a few example files. */
export interface SkipReason {
  reason: string;
  count: number;
  examples: string[];
}

/** Outcome of one category. */
export interface CategoryImportSummary {
  category: Category;
  /** files found */
  read: number;
  /** rows inserted or updated or already identical */
  imported: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  reasons: SkipReason[];
  elapsedMs: number;
  partsPerSecond: number;
}

/** Outcome of an import: per category and in total. */
export interface ImportSummary {
  /** the open-db folder read */
  dir: string;
  categories: CategoryImportSummary[];
  /** sub-folders that are not renderable categories (Monitor, Keyboard ...) */
  ignoredFolders: string[];
  total: Omit<CategoryImportSummary, 'category'>;
}

/** Raised when the folder is not an OpenDB checkout at all (a usage error). */
export class OpenDbLayoutError extends UserError {
  constructor(message: string) {
    super('not_an_opendb_folder', message);
    this.name = 'OpenDbLayoutError';
  }
}

const MAX_EXAMPLES = 3;

async function isDir(p: string): Promise<boolean> {
  return (await fs.stat(p).catch(() => null))?.isDirectory() ?? false;
}

/** The folder holding the category folders: `<dir>/open-db` or `<dir>` itself. */
export async function resolveOpenDbDir(dir: string): Promise<string> {
  const nested = path.join(dir, 'open-db');
  if (await isDir(nested)) return nested;
  if (!(await isDir(dir))) throw new OpenDbLayoutError(`${dir} is not a folder`);
  const entries = await fs.readdir(dir);
  if (entries.some((e) => (CATEGORIES as readonly string[]).includes(e))) return dir;
  throw new OpenDbLayoutError(
    `${dir} has neither an open-db/ folder nor category folders (${CATEGORIES.join(', ')}): point at an OpenDB checkout`,
  );
}

/** Runs `fn` over items with at most `limit` in flight; results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return out;
}

interface Row {
  id: string;
  category: Category;
  name: string;
  specs: string;
  raw: string;
  opendb_id: string;
}

class Tally {
  inserted = 0;
  updated = 0;
  unchanged = 0;
  private reasons = new Map<string, SkipReason>();

  skip(reason: string, file: string): void {
    let r = this.reasons.get(reason);
    if (!r) this.reasons.set(reason, (r = { reason, count: 0, examples: [] }));
    r.count++;
    if (r.examples.length < MAX_EXAMPLES) r.examples.push(file);
  }

  get skipped(): number {
    let n = 0;
    for (const r of this.reasons.values()) n += r.count;
    return n;
  }

  list(): SkipReason[] {
    return [...this.reasons.values()].sort((a, b) => b.count - a.count);
  }
}

/**
 * Upserts one batch. Rows whose name, specs and raw record are unchanged are not touched
 * (the WHERE on DO UPDATE), which makes a re-import cheap and keeps `version`/`updated_at`.
 */
async function upsertBatch(db: Db, rows: Row[], tally: Tally): Promise<void> {
  if (rows.length === 0) return;
  const result = await db.db
    .insertInto('parts')
    .values(rows)
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({
          category: (eb) => eb.ref('excluded.category'),
          name: (eb) => eb.ref('excluded.name'),
          specs: (eb) => eb.ref('excluded.specs'),
          raw: (eb) => eb.ref('excluded.raw'),
          opendb_id: (eb) => eb.ref('excluded.opendb_id'),
          version: sql`CASE WHEN parts.specs IS DISTINCT FROM excluded.specs THEN parts.version + 1 ELSE parts.version END`,
          updated_at: sql`now()`,
        })
        .where(
          sql<boolean>`(parts.specs, parts.name, parts.raw, parts.category) IS DISTINCT FROM (excluded.specs, excluded.name, excluded.raw, excluded.category)`,
        ),
    )
    // xmax = 0 only for a freshly inserted tuple
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .execute();
  const inserted = result.filter((r) => r.inserted).length;
  tally.inserted += inserted;
  tally.updated += result.length - inserted;
  tally.unchanged += rows.length - result.length;
}

/**
 * Upserts a batch; when PostgreSQL rejects the data of one row (e.g. a \u0000 in a string,
 * which jsonb refuses), retries row by row so only the bad record is skipped.
 */
async function upsert(db: Db, rows: Row[], tally: Tally, files: Map<string, string>): Promise<void> {
  try {
    await upsertBatch(db, rows, tally);
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    // class 22: data exception; 23: integrity constraint (e.g. a CHECK)
    if (!/^2[23]/.test(code) || rows.length === 1) {
      if (rows.length === 1 && /^2[23]/.test(code)) {
        tally.skip(`rejected by the database (${(err as Error).message})`, files.get(rows[0]!.id) ?? rows[0]!.id);
        return;
      }
      throw err;
    }
    for (const row of rows) await upsert(db, [row], tally, files);
  }
}

/** Imports every record under `dir`; see the file comment. */
export async function importOpenDb(db: Db, dir: string, opts: ImportOptions = {}): Promise<ImportSummary> {
  const root = await resolveOpenDbDir(dir);
  const wanted = opts.categories ?? CATEGORIES;
  const batchSize = Math.max(1, opts.batchSize ?? 500);
  const concurrency = Math.max(1, opts.concurrency ?? 64);
  const folders = (await fs.readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const ignoredFolders = folders.filter((f) => !(CATEGORIES as readonly string[]).includes(f));

  const lists = new Map<Category, string[]>();
  for (const category of wanted) {
    const folder = path.join(root, category);
    const files = (await isDir(folder)) ? (await fs.readdir(folder)).filter((f) => f.endsWith('.json')).sort() : [];
    lists.set(category, files);
  }
  const overallTotal = [...lists.values()].reduce((n, l) => n + l.length, 0);
  let overallDone = 0;
  // an ID already used in this run by another opendb_id: a hash collision, reported not merged
  const seen = new Map<string, string>();
  const started = Date.now();
  const summaries: CategoryImportSummary[] = [];

  for (const category of wanted) {
    const files = lists.get(category)!;
    const tally = new Tally();
    const t0 = Date.now();
    let done = 0;
    let pending: Promise<void> = Promise.resolve();
    let failure: unknown;
    const fileOf = new Map<string, string>();
    for (let i = 0; i < files.length; i += batchSize) {
      opts.signal?.throwIfAborted();
      const chunk = files.slice(i, i + batchSize);
      const rows: Row[] = [];
      const parsed = await mapLimit(chunk, concurrency, async (file) => {
        const rel = `${category}/${file}`;
        try {
          return {
            file: rel,
            record: JSON.parse(await fs.readFile(path.join(root, category, file), 'utf8')) as unknown,
          };
        } catch (err) {
          return {
            file: rel,
            error:
              err instanceof SyntaxError
                ? 'invalid JSON'
                : `unreadable (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
          };
        }
      });
      for (const item of parsed) {
        if ('error' in item) {
          tally.skip(item.error!, item.file);
          continue;
        }
        const mapped = mapOpenDbRecord(category, item.record);
        if (!mapped.ok) {
          tally.skip(mapped.reason, item.file);
          continue;
        }
        const rec = item.record as Record<string, unknown>;
        const fromFile = path.basename(item.file, '.json');
        const opendbId = (
          isOpenDbId(rec.opendb_id) ? rec.opendb_id : isOpenDbId(fromFile) ? fromFile : undefined
        )?.toLowerCase();
        if (!opendbId) {
          tally.skip('no opendb_id (neither in the record nor as the file name)', item.file);
          continue;
        }
        const id = partIdFromOpenDbId(opendbId);
        const owner = seen.get(id);
        if (owner !== undefined) {
          tally.skip(
            owner === opendbId ? 'duplicate opendb_id' : `part ID collision with opendb_id ${owner}`,
            item.file,
          );
          continue;
        }
        seen.set(id, opendbId);
        fileOf.set(id, item.file);
        rows.push({
          id,
          category,
          name: mapped.name,
          specs: JSON.stringify(mapped.specs),
          raw: JSON.stringify(rec),
          opendb_id: opendbId,
        });
      }
      // read and map the next chunk while this one is written
      await pending;
      if (failure) throw failure;
      // caught here and rethrown above, so a failing write never becomes an unhandled rejection
      pending = upsert(db, rows, tally, fileOf).catch((err: unknown) => {
        failure = err;
      });
      done += chunk.length;
      overallDone += chunk.length;
      opts.onProgress?.({ category, done, total: files.length, overallDone, overallTotal });
    }
    await pending;
    if (failure) throw failure;
    const elapsedMs = Date.now() - t0;
    const imported = tally.inserted + tally.updated + tally.unchanged;
    summaries.push({
      category,
      read: files.length,
      imported,
      inserted: tally.inserted,
      updated: tally.updated,
      unchanged: tally.unchanged,
      skipped: tally.skipped,
      reasons: tally.list(),
      elapsedMs,
      partsPerSecond: rate(imported, elapsedMs),
    });
  }

  const elapsedMs = Date.now() - started;
  const sum = (k: 'read' | 'imported' | 'inserted' | 'updated' | 'unchanged' | 'skipped') =>
    summaries.reduce((n, s) => n + s[k], 0);
  const reasons = new Map<string, SkipReason>();
  for (const r of summaries.flatMap((s) => s.reasons)) {
    const t = reasons.get(r.reason) ?? { reason: r.reason, count: 0, examples: [] };
    t.count += r.count;
    t.examples = [...t.examples, ...r.examples].slice(0, MAX_EXAMPLES);
    reasons.set(r.reason, t);
  }
  return {
    dir: root,
    categories: summaries,
    ignoredFolders,
    total: {
      read: sum('read'),
      imported: sum('imported'),
      inserted: sum('inserted'),
      updated: sum('updated'),
      unchanged: sum('unchanged'),
      skipped: sum('skipped'),
      reasons: [...reasons.values()].sort((a, b) => b.count - a.count),
      elapsedMs,
      partsPerSecond: rate(sum('imported'), elapsedMs),
    },
  };
}

function rate(n: number, ms: number): number {
  return ms > 0 ? Math.round((n * 1000) / ms) : n;
}
