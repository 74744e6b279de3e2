/** What a test database and its file store hold of part models: the rows and the stored objects. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestDb } from './db.js';

/** How many part_models rows there are (every version of every part). */
export async function partModelRows(t: Pick<TestDb, 'db'>): Promise<number> {
  const { n } = await t.db.db
    .selectFrom('part_models')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The file names in the store's models/ folder, sorted; none before the first model is stored. */
export async function storedModelFiles(t: Pick<TestDb, 'cfg'>): Promise<string[]> {
  return (await fs.readdir(path.join(t.cfg.dataDir, 'artifacts', 'models')).catch(() => [] as string[])).sort();
}
