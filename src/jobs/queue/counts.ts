/** Queue depth by kind, for /health and metrics. */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { THUMBNAIL_JOB_PART_COUNT, THUMBNAIL_TASK_NAME } from './task-map.js';

/** Counts of one kind of queued work. */
export interface KindCounts {
  queued: number;
  processing: number;
  /** queue jobs that used up their attempts (graphile-worker keeps them; thumbnails only, counted in parts) */
  failed?: number;
}

/** Queue depth for /health and metrics: renders (top level, as before) and every kind of job. */
export interface QueueCounts {
  queued: number;
  processing: number;
  by_kind: { render: KindCounts; thumbnail: KindCounts };
  /** frame-range chunks of split renders (those renders count once under render.processing) */
  chunks: KindCounts;
}

/** Counts for /health and metrics: renders from their rows, thumbnails from graphile-worker's jobs. */
export async function queueCounts(db: Kysely<Database>): Promise<QueueCounts> {
  const rows = await db
    .selectFrom('renders')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('status', 'in', ['queued', 'processing'])
    .groupBy('status')
    .execute();
  const get = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  const render = { queued: get('queued'), processing: get('processing') };
  return { ...render, by_kind: { render, thumbnail: await thumbnailCounts(db) }, chunks: await chunkCounts(db) };
}

/** Chunks of the current plans of processing renders, by state. */
async function chunkCounts(db: Kysely<Database>): Promise<KindCounts> {
  const rows = await db
    .selectFrom('render_chunks as c')
    .innerJoin('renders as r', (j) => j.onRef('r.id', '=', 'c.render_id').onRef('r.chunk_plan', '=', 'c.plan'))
    .select(['c.status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('r.status', '=', 'processing')
    .where('c.status', 'in', ['queued', 'processing'])
    .groupBy('c.status')
    .execute();
  const get = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { queued: get('queued'), processing: get('processing') };
}

/**
 * Thumbnail jobs live only in graphile-worker's table (no row of ours), so they are counted
 * there, in parts (a job is a batch of parts): queued and failed parts are those of waiting and
 * failed jobs; processing counts every part of a running batch, done or not, until it completes.
 */
async function thumbnailCounts(db: Kysely<Database>): Promise<KindCounts> {
  const { rows } = await sql<{ queued: string | null; processing: string | null; failed: string | null }>`
    SELECT sum(${THUMBNAIL_JOB_PART_COUNT}) FILTER (WHERE pj.locked_at IS NULL AND pj.attempts < pj.max_attempts) AS queued,
           sum(${THUMBNAIL_JOB_PART_COUNT}) FILTER (WHERE pj.locked_at IS NOT NULL) AS processing,
           sum(${THUMBNAIL_JOB_PART_COUNT}) FILTER (WHERE pj.locked_at IS NULL AND pj.attempts >= pj.max_attempts) AS failed
    FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
    WHERE t.identifier = ${THUMBNAIL_TASK_NAME}`
    .execute(db)
    // no queue schema yet (nothing was ever queued): nothing waits
    .catch((err: { code?: string }) => {
      if (err.code === '3F000' || err.code === '42P01') return { rows: [] };
      throw err;
    });
  const r = rows[0];
  return { queued: Number(r?.queued ?? 0), processing: Number(r?.processing ?? 0), failed: Number(r?.failed ?? 0) };
}
