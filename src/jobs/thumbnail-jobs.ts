/**
 * Thumbnail jobs: the low-priority `thumbnail` task's queue side (the handler is
 * tasks/thumbnail.ts), what `catalog import` calls after an import, and the operators' view of
 * the backlog (`jobs list --kind thumbnails`; counts in queue.ts for /health and /metrics).
 * A job is a batch of up to THUMBNAIL_BATCH_SIZE parts, rendered in one page session
 * (thumbnails/batch-thumbnails.ts); every view counts and lists parts, not jobs.
 */
import { sql } from 'kysely';
import { z } from 'zod';
import type { ImportSummary } from '../catalog/importer.js';
import type { Db } from '../db/database.js';
import type { Category } from '../model/part.js';
import { CURRENT_THUMBNAIL_KEY } from '../thumbnails/part-thumbnail.js';
import { installQueue } from './queue/runner.js';
import { THUMBNAIL_JOB_PART_COUNT, THUMBNAIL_JOB_PART_IDS, THUMBNAIL_TASK_NAME } from './queue/task-map.js';
import { MAX_RENDER_PRIORITY } from './fair-priority.js';
import { addJobs } from './queue/add-job.js';
import { taskSpec } from './queue/task-spec.js';

/** graphile-worker task name. */
export const THUMBNAIL_TASK = THUMBNAIL_TASK_NAME;
/**
 * Parts per job. The per-part cost is flat within a batch (~50-90 ms here) and the per-job cost
 * is a claim, one SELECT and one stage session, so the size mostly bounds how long a batch holds
 * a worker: 100 parts take ~6-10 s on 2 cores, and a render queued meanwhile waits at most that.
 */
export const THUMBNAIL_BATCH_SIZE = 100;
const partId = z.string().min(1).max(64);
/**
 * The thumbnail task's name and payload, shared by its handler and enqueueThumbnails: a batch
 * of part ids (`isolated`: parts that failed in a batch, retried by graphile as one job), or the
 * single `partId` of a job queued before thumbnails were batched.
 */
export const thumbnailTaskSpec = taskSpec(
  THUMBNAIL_TASK,
  z.union([z.object({ partIds: z.array(partId).min(1).max(THUMBNAIL_BATCH_SIZE), isolated: z.boolean().optional() }), z.object({ partId })]),
);
/** Queue priority: graphile runs lower numbers first; every render is at most MAX_RENDER_PRIORITY, so thumbnails wait for them. */
export const THUMBNAIL_PRIORITY = 100;
export const THUMBNAIL_MAX_ATTEMPTS = 3;
// a render must always outrank a thumbnail
if (THUMBNAIL_PRIORITY <= MAX_RENDER_PRIORITY) throw new Error('THUMBNAIL_PRIORITY must be above every render priority');

/** Queues `ids` as batch jobs (in the given order, THUMBNAIL_BATCH_SIZE a job); returns how many parts. */
export async function enqueueThumbnailBatches(db: Db, ids: readonly string[], opts: { isolated?: boolean } = {}): Promise<number> {
  const jobs: { partIds: string[]; isolated?: boolean }[] = [];
  for (let i = 0; i < ids.length; i += THUMBNAIL_BATCH_SIZE) jobs.push({ partIds: ids.slice(i, i + THUMBNAIL_BATCH_SIZE), ...(opts.isolated ? { isolated: true } : {}) });
  await addJobs(
    db.db,
    thumbnailTaskSpec,
    jobs.map((payload) => ({ payload, priority: THUMBNAIL_PRIORITY, maxAttempts: THUMBNAIL_MAX_ATTEMPTS })),
  );
  return ids.length;
}

/**
 * Enqueues low-priority `thumbnail` batch jobs for every part (of `categories`) that lacks a
 * current thumbnail and is not already waiting in one, sorted by category so a batch draws
 * alike parts. Jobs that used up their attempts are dropped when all their parts are queued
 * again (a re-import retries them, as a job key did when there was one job per part).
 * Returns how many parts were queued. The queue schema must be installed (installQueue).
 */
export async function enqueueThumbnails(db: Db, opts: { categories?: readonly Category[] } = {}): Promise<number> {
  const waiting = sql<string>`
    SELECT ${THUMBNAIL_JOB_PART_IDS} FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
     WHERE t.identifier = ${THUMBNAIL_TASK} AND pj.locked_at IS NULL AND pj.attempts < pj.max_attempts`;
  let q = db.db
    .selectFrom('parts')
    .select('id')
    .where(sql<boolean>`image_key IS DISTINCT FROM ${CURRENT_THUMBNAIL_KEY}`)
    .where(sql<boolean>`id NOT IN (${waiting})`);
  if (opts.categories?.length) q = q.where('category', 'in', [...opts.categories]);
  const ids = (await q.orderBy('category').orderBy('id').execute()).map((r) => r.id);
  if (ids.length === 0) return 0;
  await sql`
    SELECT graphile_worker.complete_jobs(array_agg(f.id)) FROM (
      SELECT pj.id FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
       WHERE t.identifier = ${THUMBNAIL_TASK} AND pj.locked_at IS NULL AND pj.attempts >= pj.max_attempts
         AND NOT EXISTS (SELECT 1 FROM (SELECT ${THUMBNAIL_JOB_PART_IDS} AS id) j WHERE j.id <> ALL(${ids}::text[]))) f
    HAVING count(*) > 0`.execute(db.db);
  return enqueueThumbnailBatches(db, ids);
}

/** Enqueues thumbnail jobs for parts of the categories that got rows; returns how many were queued. */
export async function queueImportThumbnails(db: Db, summary: ImportSummary): Promise<number> {
  const categories = summary.categories.filter((c) => c.inserted + c.updated > 0).map((c) => c.category);
  if (categories.length === 0) return 0;
  // the queue schema may not exist yet on a database no worker or server has used
  await installQueue(db.pool);
  return enqueueThumbnails(db, { categories });
}

/** One part of a thumbnail job as `jobs list --kind thumbnails` shows it. */
export interface ThumbnailJob {
  partId: string;
  part: string | null;
  category: string | null;
  /** the graphile job (a batch) the part waits in */
  jobId: string;
  /** parts in that job */
  batch: number;
  state: 'queued' | 'processing' | 'failed';
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  runAt: Date;
}

/** The thumbnail backlog, one row per part: running batches first, then waiting in run order, then failed. */
export async function listThumbnailJobs(db: Db, opts: { limit?: number } = {}): Promise<ThumbnailJob[]> {
  const { rows } = await sql<{
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
  }>`
    SELECT j.id::text, j.part_id, j.batch, p.name, p.category, j.locked_at, j.attempts, j.max_attempts, j.last_error, j.run_at
    FROM (SELECT pj.id, pj.priority, pj.locked_at, pj.attempts, pj.max_attempts, pj.last_error, pj.run_at,
                 ${THUMBNAIL_JOB_PART_IDS} AS part_id, ${THUMBNAIL_JOB_PART_COUNT} AS batch
            FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
           WHERE t.identifier = ${THUMBNAIL_TASK}) j
    LEFT JOIN parts p ON p.id = j.part_id
    ORDER BY (j.locked_at IS NULL), (j.attempts >= j.max_attempts), j.priority, j.run_at, j.id, j.part_id
    LIMIT ${opts.limit ?? 50}`.execute(db.db);
  return rows.map((r) => ({
    partId: r.part_id,
    part: r.name,
    category: r.category,
    jobId: r.id,
    batch: r.batch,
    state: r.locked_at ? 'processing' : r.attempts >= r.max_attempts ? 'failed' : 'queued',
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    lastError: r.last_error,
    runAt: r.run_at,
  }));
}
