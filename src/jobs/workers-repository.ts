/** Worker processes as seen through their heartbeats. */
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
