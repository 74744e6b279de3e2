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

/** A heartbeat: the worker is alive now, holding these graphile-worker ids. */
export async function recordHeartbeat(db: Db, id: string, graphileIds: readonly string[]): Promise<void> {
  await db.db
    .updateTable('workers')
    .set({ last_seen: sql`now()`, graphile_ids: [...graphileIds] })
    .where('id', '=', id)
    .execute();
}

/** A worker that stopped cleanly. */
export async function markWorkerStopped(db: Db, id: string): Promise<void> {
  await db.db.updateTable('workers').set({ stopped_at: sql`now()` }).where('id', '=', id).execute();
}
