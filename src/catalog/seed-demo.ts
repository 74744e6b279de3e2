/** Seeds the demo catalog (demo-catalog.ts) into an empty database, once, whoever starts first. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { DEMO_BUILDS, DEMO_PARTS } from './demo-catalog.js';

/** Serialises seeding across processes (any constant; pg_advisory_xact_lock takes a bigint). */
const SEED_LOCK = 72_460_190_021n;

/**
 * Seeds the demo parts and builds into an empty catalog (no parts and no builds). A catalog
 * holding anything is left alone, so a deleted demo build stays deleted and an imported
 * catalog gets no demo parts. Safe on every start and from several processes at once (the
 * check and the inserts run under one transaction-scoped advisory lock).
 * Returns how many rows this call inserted.
 */
export async function seedDemoCatalog(db: Db): Promise<{ parts: number; builds: number }> {
  return db.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${SEED_LOCK.toString()}::bigint)`.execute(trx);
    const used = await sql<{
      used: boolean;
    }>`SELECT EXISTS (SELECT 1 FROM parts) OR EXISTS (SELECT 1 FROM builds) AS used`.execute(trx);
    if (used.rows[0]?.used) return { parts: 0, builds: 0 };
    const parts = await trx
      .insertInto('parts')
      .values(
        DEMO_PARTS.map((p) => ({
          id: p.id,
          category: p.category,
          name: p.name,
          specs: JSON.stringify(p.specs),
          raw: null,
          opendb_id: null,
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute();
    const builds = await trx
      .insertInto('builds')
      .values(
        DEMO_BUILDS.map((b) => ({
          share_code: b.shareCode,
          name: b.name,
          description: b.description,
          parts: JSON.stringify(b.parts),
          interactive_state: b.interactiveState ? JSON.stringify(b.interactiveState) : null,
        })),
      )
      .onConflict((oc) => oc.column('share_code').doNothing())
      .returning('share_code')
      .execute();
    return { parts: parts.length, builds: builds.length };
  });
}
