/** Customers own API keys and jobs. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Returns the customer with this name, creating it when new (concurrency-safe upsert). */
export async function ensureCustomer(db: Kysely<Database>, name: string): Promise<{ id: string; name: string }> {
  return db
    .insertInto('customers')
    .values({ name })
    .onConflict((oc) => oc.column('name').doUpdateSet({ name }))
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}
