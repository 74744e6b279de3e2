/** Farm-wide settings in the database (sql/0005_settings.sql): created once, then shared. */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * The setting's value, creating it from `initial()` when absent. Race-safe: of processes
 * starting together one insert wins and all read the winner's value (the read is a new
 * statement, so it sees the row the conflicting insert waited for).
 */
export async function getOrCreateSetting(
  db: Kysely<Database>,
  key: string,
  initial: () => Promise<string> | string,
): Promise<string> {
  const existing = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('settings')
    .values({ key, value: await initial() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value;
}
