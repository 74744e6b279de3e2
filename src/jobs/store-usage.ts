/**
 * The artifact store's size as the database keeps it (sql/0013's running total of renders'
 * files, kept by a trigger; pregenerated entries summed from their table), and what retention
 * has removed so far: read by /metrics, `top` and `cache stats` without listing the store.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface StoreUsage {
  /** bytes of renders' files in the store, and how many renders hold files */
  renderBytes: number;
  renders: number;
  /** pregenerated entries (copies under pregen/, kept until `pregen rm`); absent unless asked for */
  pregen?: { entries: number; bytes: number };
  /** since the farm began: renders whose files retention removed, their bytes, rows deleted */
  sweptRenders: number;
  sweptBytes: number;
  rowsDeleted: number;
  lastSweepAt: Date | null;
}

export async function storeUsage(db: Db, opts: { pregen?: boolean } = {}): Promise<StoreUsage> {
  const u = await db.db.selectFrom('store_usage').selectAll().executeTakeFirst();
  const out: StoreUsage = {
    renderBytes: Number(u?.render_bytes ?? 0),
    renders: Number(u?.render_count ?? 0),
    sweptRenders: Number(u?.swept_renders ?? 0),
    sweptBytes: Number(u?.swept_bytes ?? 0),
    rowsDeleted: Number(u?.rows_deleted ?? 0),
    lastSweepAt: u?.last_sweep_at ?? null,
  };
  if (opts.pregen) {
    const p = await sql<{
      n: number;
      bytes: string | null;
    }>`SELECT count(*)::int AS n, sum(bytes) AS bytes FROM pregenerated`.execute(db.db);
    out.pregen = { entries: p.rows[0]?.n ?? 0, bytes: Number(p.rows[0]?.bytes ?? 0) };
  }
  return out;
}
