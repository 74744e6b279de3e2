/**
 * Every query on graphile-worker's own schema (`graphile_worker.*`: its jobs view, private
 * tables and SQL functions), so an upgrade of graphile-worker is checked against this one file.
 * `npm run lint:rules` refuses `graphile_worker.` anywhere else in src/. (sql/0007_webhooks.sql's
 * trigger calls `add_job` too: migrations are SQL, not src/.)
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { renderJobKey, type TaskName } from './task-map.js';

const THUMBNAIL: TaskName = 'thumbnail';

/** One row for graphile's `add_job`. */
export interface JobRow {
  identifier: TaskName;
  payload: unknown;
  key: string | null;
  priority: number;
  max_attempts: number | null;
}

/** Adds jobs in one statement (on the caller's connection or transaction); returns how many. */
export async function addJobRows(db: Kysely<Database>, rows: readonly JobRow[]): Promise<number> {
  const r = await sql<{ n: string }>`
    WITH added AS (
      SELECT graphile_worker.add_job(t.identifier, t.payload, job_key := t.key, priority := t.priority,
        max_attempts := COALESCE(t.max_attempts, 25))
      FROM json_to_recordset(${JSON.stringify(rows)}::json)
        AS t(identifier text, payload json, key text, priority int, max_attempts int)
    )
    SELECT count(*) AS n FROM added`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/** Whether the render has a queue job (waiting, or locked by a worker). */
export async function hasRenderJob(db: Kysely<Database>, renderId: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM graphile_worker.jobs WHERE key = ${renderJobKey(renderId)}`.execute(db);
  return rows.length > 0;
}

/** Frees the queue jobs these graphile-worker ids hold, so any worker can take them again. */
export async function forceUnlockWorkers(db: Kysely<Database>, graphileIds: readonly string[]): Promise<void> {
  if (!graphileIds.length) return;
  // the same statement graphile-worker's forceUnlockWorkers runs, without a second pool
  await sql`SELECT graphile_worker.force_unlock_workers(${sql.val([...graphileIds])}::text[])`.execute(db);
}

/**
 * One ageing step over `tasks`: every unlocked job of them untouched for `stepS` rises by one
 * (graphile's own reschedule_jobs, which also stamps updated_at, so a job rises once per step
 * however many sweepers run). Returns how many rose.
 */
export async function raiseWaitingJobs(
  db: Kysely<Database>,
  tasks: readonly TaskName[],
  stepS: number,
): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    WITH due AS (
      SELECT id, priority FROM graphile_worker.jobs
      WHERE task_identifier = ANY(${sql.val([...tasks])}::text[]) AND locked_at IS NULL AND priority > 0
        AND updated_at < now() - make_interval(secs => ${stepS})
      LIMIT 1000
    ), risen AS (
      SELECT graphile_worker.reschedule_jobs(ARRAY[id], priority := priority - 1) FROM due
    )
    SELECT count(*) AS n FROM risen`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * SQL: the part ids a thumbnail job carries, one row each (a set-returning expression over
 * graphile's `_private_jobs` as `pj`): a batch's `partIds`, or the one `partId` of a job queued
 * before thumbnails were batched.
 */
const THUMBNAIL_JOB_PART_IDS = sql<string>`json_array_elements_text(COALESCE(pj.payload->'partIds', json_build_array(pj.payload->>'partId')))`;
/** SQL: how many parts a thumbnail job (`pj`) carries. */
const THUMBNAIL_JOB_PART_COUNT = sql<number>`COALESCE(json_array_length(pj.payload->'partIds'), 1)`;

/** Counts of thumbnail parts by state (thumbnail jobs are batches: counted in parts). */
export interface ThumbnailPartCounts {
  queued: number;
  processing: number;
  failed: number;
}

/**
 * Thumbnail jobs live only in graphile-worker's table (no row of ours), so they are counted
 * there, in parts (a job is a batch of parts): queued and failed parts are those of waiting and
 * failed jobs; processing counts every part of a running batch, done or not, until it completes.
 */
export async function thumbnailPartCounts(db: Kysely<Database>): Promise<ThumbnailPartCounts> {
  const { rows } = await sql<{ queued: string | null; processing: string | null; failed: string | null }>`
    SELECT sum(${THUMBNAIL_JOB_PART_COUNT}) FILTER (WHERE pj.locked_at IS NULL AND pj.attempts < pj.max_attempts) AS queued,
           sum(${THUMBNAIL_JOB_PART_COUNT}) FILTER (WHERE pj.locked_at IS NOT NULL) AS processing,
           sum(${THUMBNAIL_JOB_PART_COUNT}) FILTER (WHERE pj.locked_at IS NULL AND pj.attempts >= pj.max_attempts) AS failed
    FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
    WHERE t.identifier = ${THUMBNAIL}`
    .execute(db)
    // no queue schema yet (nothing was ever queued): nothing waits
    .catch((err: { code?: string }) => {
      if (err.code === '3F000' || err.code === '42P01') return { rows: [] };
      throw err;
    });
  const r = rows[0];
  return { queued: Number(r?.queued ?? 0), processing: Number(r?.processing ?? 0), failed: Number(r?.failed ?? 0) };
}

/** Parts of thumbnail jobs that still have attempts left (waiting or running); null when the query fails. */
export async function thumbnailPartsLeft(db: Kysely<Database>): Promise<number | null> {
  return sql<{ n: number }>`
      SELECT COALESCE(sum(${THUMBNAIL_JOB_PART_COUNT}), 0)::int AS n FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
       WHERE t.identifier = ${THUMBNAIL} AND pj.attempts < pj.max_attempts`
    .execute(db)
    .then(
      (r) => r.rows[0]?.n ?? null,
      () => null,
    );
}

/** SQL subquery: the part ids of thumbnail jobs waiting (unlocked, attempts left). */
export function waitingThumbnailPartIds() {
  return sql<string>`
    SELECT ${THUMBNAIL_JOB_PART_IDS} FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
     WHERE t.identifier = ${THUMBNAIL} AND pj.locked_at IS NULL AND pj.attempts < pj.max_attempts`;
}

/** Drops thumbnail jobs that used up their attempts and whose parts are all among `ids` (about to be queued again). */
export async function dropFailedThumbnailJobsCoveredBy(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  await sql`
    SELECT graphile_worker.complete_jobs(array_agg(f.id)) FROM (
      SELECT pj.id FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
       WHERE t.identifier = ${THUMBNAIL} AND pj.locked_at IS NULL AND pj.attempts >= pj.max_attempts
         AND NOT EXISTS (SELECT 1 FROM (SELECT ${THUMBNAIL_JOB_PART_IDS} AS id) j WHERE j.id <> ALL(${ids}::text[]))) f
    HAVING count(*) > 0`.execute(db);
}

/** One part of a thumbnail job, with its part's name and category when the part still exists. */
export interface ThumbnailJobPartRow {
  id: string;
  part_id: string;
  batch: number;
  name: string | null;
  category: string | null;
  locked_at: Date | null;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  run_at: Date;
}

/** The thumbnail backlog, one row per part: running batches first, then waiting in run order, then failed. */
export async function thumbnailJobParts(db: Kysely<Database>, limit: number): Promise<ThumbnailJobPartRow[]> {
  const { rows } = await sql<ThumbnailJobPartRow>`
    SELECT j.id::text, j.part_id, j.batch, p.name, p.category, j.locked_at, j.attempts, j.max_attempts, j.last_error, j.run_at
    FROM (SELECT pj.id, pj.priority, pj.locked_at, pj.attempts, pj.max_attempts, pj.last_error, pj.run_at,
                 ${THUMBNAIL_JOB_PART_IDS} AS part_id, ${THUMBNAIL_JOB_PART_COUNT} AS batch
            FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
           WHERE t.identifier = ${THUMBNAIL}) j
    LEFT JOIN parts p ON p.id = j.part_id
    ORDER BY (j.locked_at IS NULL), (j.attempts >= j.max_attempts), j.priority, j.run_at, j.id, j.part_id
    LIMIT ${limit}`.execute(db);
  return rows;
}

/** Queue depth of one kind of job as `top` shows it. */
export interface QueueKindDepth {
  kind: string;
  queued: number;
  running: number;
}

/**
 * Jobs with attempts left by kind (renders for customers, renders of `pregenCustomer`'s runs,
 * thumbnails, webhooks, other tasks by name): the payload tells renders for customers from
 * pregen runs; thumbnail jobs are batches, counted in parts as /health does. Empty when the
 * query fails (no queue schema yet).
 */
export async function queueDepthByKind(db: Kysely<Database>, pregenCustomer: string): Promise<QueueKindDepth[]> {
  const queue = await sql<QueueKindDepth>`
    SELECT CASE t.identifier
             WHEN 'render' THEN CASE WHEN EXISTS (
                    SELECT 1 FROM jobs jb JOIN customers c ON c.id = jb.customer_id
                     WHERE jb.render_id = (pj.payload->>'renderId')::uuid AND c.name <> ${pregenCustomer}) THEN 'renders' ELSE 'pregen' END
             WHEN 'thumbnail' THEN 'thumbnails'
             WHEN 'webhook' THEN 'webhooks'
             ELSE t.identifier END AS kind,
           -- thumbnail jobs are batches: counted in parts, as /health does
           COALESCE(sum(CASE WHEN t.identifier = ${THUMBNAIL} THEN ${THUMBNAIL_JOB_PART_COUNT} ELSE 1 END) FILTER (WHERE pj.locked_at IS NULL), 0)::int AS queued,
           COALESCE(sum(CASE WHEN t.identifier = ${THUMBNAIL} THEN ${THUMBNAIL_JOB_PART_COUNT} ELSE 1 END) FILTER (WHERE pj.locked_at IS NOT NULL), 0)::int AS running
      FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
     WHERE pj.attempts < pj.max_attempts
     GROUP BY 1`
    .execute(db)
    .catch(() => ({ rows: [] as QueueKindDepth[] }));
  return queue.rows;
}
