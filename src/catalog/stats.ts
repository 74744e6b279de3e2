/** Catalog counts: parts per category (demo and imported) and saved builds. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { CATEGORIES, type Category } from '../model/part.js';

/** Part counts per category, split into demo (no opendb_id) and imported. */
export interface CatalogStats {
  categories: { category: Category; demo: number; imported: number; total: number }[];
  parts: number;
  builds: number;
}

/** Counts for `catalog stats` and health pages. */
export async function catalogStats(db: Db): Promise<CatalogStats> {
  const rows = await db.db
    .selectFrom('parts')
    .select([
      'category',
      sql<string>`count(*) filter (where opendb_id is null)`.as('demo'),
      sql<string>`count(*) filter (where opendb_id is not null)`.as('imported'),
    ])
    .groupBy('category')
    .execute();
  const builds = await db.db
    .selectFrom('builds')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const byCat = new Map(rows.map((r) => [r.category, r]));
  const categories = CATEGORIES.map((category) => {
    const r = byCat.get(category);
    const demo = Number(r?.demo ?? 0);
    const imported = Number(r?.imported ?? 0);
    return { category, demo, imported, total: demo + imported };
  });
  return { categories, parts: categories.reduce((n, c) => n + c.total, 0), builds: Number(builds.n) };
}
