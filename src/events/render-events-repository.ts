/** Reads of render_events (sql/0006_job_events.sql): the replay log behind Last-Event-ID. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { RenderStatus } from '../db/schema.js';

export interface RenderEventRow {
  id: number;
  kind: 'status' | 'progress';
  status: RenderStatus;
  progress: number;
}

export interface RenderEventState {
  status: RenderStatus;
  progress: number;
  /** id of the render's newest event; 0 when nothing has happened since it was queued */
  lastEventId: number;
}

/** The render's state and its newest event id, read in one statement so they agree. */
export async function renderEventState(db: Db, renderId: string): Promise<RenderEventState | null> {
  const row = await db.db
    .selectFrom('renders as r')
    .select([
      'r.status',
      'r.progress',
      sql<string>`coalesce((SELECT max(e.id) FROM render_events e WHERE e.render_id = r.id), 0)`.as('last_id'),
    ])
    .where('r.id', '=', renderId)
    .executeTakeFirst();
  return row ? { status: row.status, progress: Number(row.progress), lastEventId: Number(row.last_id) } : null;
}

/** Events of a render after `afterId`, oldest first. */
export async function renderEventsSince(db: Db, renderId: string, afterId: number): Promise<RenderEventRow[]> {
  const rows = await db.db
    .selectFrom('render_events')
    .select(['id', 'kind', 'status', 'progress'])
    .where('render_id', '=', renderId)
    .where('id', '>', String(afterId))
    .orderBy('id')
    .limit(1000)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), kind: r.kind, status: r.status, progress: Number(r.progress) }));
}
