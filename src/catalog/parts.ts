/**
 * The catalog's parts: listings, search and lookup by ID, for the API, the console and the CLI.
 * jsonb comes back parsed by pg.
 */
import type { Db } from '../db/database.js';
import type { Category, Part } from '../model/part.js';

/** What a part listing shows (the API adds the image URL from `image_key`). */
export interface PartSummaryRow {
  id: string;
  category: Category;
  name: string;
  image_key: string | null;
}

/** A part with its normalised specs and data version (no raw record). */
export interface PartRow extends PartSummaryRow {
  specs: Part['specs'];
  opendb_id: string | null;
  version: number;
}

/** One page of a category, ordered by name then id so paging is stable. */
export async function listParts(
  db: Db,
  category: Category,
  page: { limit: number; skip: number },
): Promise<{ items: PartSummaryRow[]; total: number }> {
  return findParts(db, { category }, page);
}

/** Which parts findParts returns; without either, every part. */
export interface PartFilter {
  category?: Category;
  /** text in the name or the ID, any case */
  search?: string;
}

/** `%`, `_` and `\` match themselves in a search (PostgreSQL's LIKE escape is a backslash). */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of parts (`catalog parts`), by category, then name, then id, so paging is stable. */
export async function findParts(
  db: Db,
  filter: PartFilter,
  page: { limit: number; skip: number },
): Promise<{ items: PartSummaryRow[]; total: number }> {
  let q = db.db.selectFrom('parts');
  if (filter.category) q = q.where('category', '=', filter.category);
  const search = filter.search?.trim();
  if (search) {
    const pattern = `%${likeEscaped(search)}%`;
    q = q.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('id', 'ilike', pattern)]));
  }
  const [items, count] = await Promise.all([
    q
      .select(['id', 'category', 'name', 'image_key'])
      .orderBy('category')
      .orderBy('name')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.skip)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

/** Parts by ID, any category, in the order first asked; unknown IDs are left out. */
export async function getPartsByIds(db: Db, ids: readonly string[]): Promise<PartRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db.db
    .selectFrom('parts')
    .select(['id', 'category', 'name', 'image_key', 'specs', 'opendb_id', 'version'])
    .where('id', 'in', unique)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.flatMap((id) => byId.get(id) ?? []);
}
