/**
 * Worker processes as seen through their heartbeats. Every stamp is the database's clock
 * (now()), the same clock the sweeper and /health compare against: a worker's own clock may be
 * off by any amount.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { DEAD_AFTER_S } from './sweeper.js';

export interface WorkerRecord {
  id: string;
  hostname: string;
  pid: number;
  concurrency: number;
  backend: Record<string, unknown> | null;
  startedAt: Date;
  lastSeen: Date;
}

export async function liveWorkers(db: Db): Promise<WorkerRecord[]> {
  const rows = await db.db
    .selectFrom('workers')
    .select(['id', 'hostname', 'pid', 'concurrency', 'backend', 'started_at', 'last_seen'])
    .where('stopped_at', 'is', null)
    .where('last_seen', '>=', sql<Date>`now() - make_interval(secs => ${DEAD_AFTER_S})`)
    .orderBy('started_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    hostname: r.hostname,
    pid: r.pid,
    concurrency: r.concurrency,
    backend: r.backend as Record<string, unknown> | null,
    startedAt: new Date(r.started_at),
    lastSeen: new Date(r.last_seen),
  }));
}

/** Registers a starting worker process. */
export async function registerWorker(db: Db, w: { id: string; hostname: string; pid: number; concurrency: number; backend: unknown }): Promise<void> {
  await db.db
    .insertInto('workers')
    .values({ id: w.id, hostname: w.hostname, pid: w.pid, concurrency: w.concurrency, backend: JSON.stringify(w.backend), started_at: sql`now()`, last_seen: sql`now()` })
    .execute();
}

/**
 * A heartbeat: the worker is alive now, holding these graphile-worker ids. It also revives a
 * worker the sweeper took for dead (silent past the bound, e.g. a long pause or a database
 * outage): otherwise it would vanish from /health and never be swept if it died later.
 * Returns whether it had been marked stopped.
 */
export async function recordHeartbeat(db: Db, id: string, graphileIds: readonly string[]): Promise<{ revived: boolean }> {
  const { rows } = await sql<{ revived: boolean }>`
    WITH prev AS (SELECT id, stopped_at FROM workers WHERE id = ${id} FOR UPDATE)
    UPDATE workers w SET last_seen = now(), stopped_at = NULL, graphile_ids = ${sql.val([...graphileIds])}::text[]
    FROM prev WHERE w.id = prev.id
    RETURNING prev.stopped_at IS NOT NULL AS revived`.execute(db.db);
  return { revived: rows[0]?.revived ?? false };
}

/** A worker that stopped cleanly. */
export async function markWorkerStopped(db: Db, id: string): Promise<void> {
  await db.db.updateTable('workers').set({ stopped_at: sql`now()` }).where('id', '=', id).execute();
}

/** One worker process as the database sees it now, or null when unknown. */
export async function getWorkerState(
  db: Db,
  id: string,
): Promise<{ id: string; hostname: string; pid: number; graphileIds: string[]; alive: boolean; silentSeconds: number } | null> {
  const row = await db.db
    .selectFrom('workers')
    .select(['id', 'hostname', 'pid', 'graphile_ids'])
    .select(sql<boolean>`stopped_at IS NULL AND last_seen >= now() - make_interval(secs => ${DEAD_AFTER_S})`.as('alive'))
    .select(sql<number>`extract(epoch FROM now() - last_seen)::float`.as('silent'))
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { id: row.id, hostname: row.hostname, pid: row.pid, graphileIds: row.graphile_ids, alive: row.alive, silentSeconds: Math.max(0, Math.round(row.silent)) } : null;
}
