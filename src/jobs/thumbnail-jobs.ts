/**
 * Thumbnail jobs: the low-priority `thumbnail` task's queue side (the handler is
 * tasks/thumbnail.ts), what `catalog import` calls after an import, and the operators' view of
 * the backlog (`jobs list --kind thumbnails`; counts in queue.ts for /health and /metrics).
 */
import { sql } from 'kysely';
import { z } from 'zod';
import type { ImportSummary } from '../catalog/importer.js';
import type { Db } from '../db/database.js';
import type { Category } from '../model/part.js';
import { CURRENT_THUMBNAIL_KEY } from '../thumbnails/part-thumbnail.js';
import { installQueue, THUMBNAIL_TASK_NAME } from './queue.js';
import { MAX_RENDER_PRIORITY } from './fair-priority.js';
import { addJobs } from './tasks/add-job.js';
import { taskSpec } from './tasks/task-spec.js';

/** graphile-worker task name. */
export const THUMBNAIL_TASK = THUMBNAIL_TASK_NAME;
/** The thumbnail task's name and payload, shared by its handler and enqueueThumbnails. */
export const thumbnailTaskSpec = taskSpec(THUMBNAIL_TASK, z.object({ partId: z.string().min(1).max(64) }));
/** Queue priority: graphile runs lower numbers first; every render is at most MAX_RENDER_PRIORITY, so thumbnails wait for them. */
export const THUMBNAIL_PRIORITY = 100;
const THUMBNAIL_MAX_ATTEMPTS = 3;
// a render must always outrank a thumbnail
if (THUMBNAIL_PRIORITY <= MAX_RENDER_PRIORITY) throw new Error('THUMBNAIL_PRIORITY must be above every render priority');

/**
 * Enqueues a low-priority `thumbnail` job for every part (of `categories`) that lacks a
 * current thumbnail, in one statement. The job key (one per part) keeps a re-import from
 * queueing a part twice. The queue schema must be installed (installQueue).
 */
export async function enqueueThumbnails(db: Db, opts: { categories?: readonly Category[] } = {}): Promise<number> {
  let q = db.db.selectFrom('parts').select('id').where(sql<boolean>`image_key IS DISTINCT FROM ${CURRENT_THUMBNAIL_KEY}`);
  if (opts.categories?.length) q = q.where('category', 'in', [...opts.categories]);
  const ids = (await q.execute()).map((r) => r.id);
  return addJobs(
    db.db,
    thumbnailTaskSpec,
    ids.map((partId) => ({ payload: { partId }, jobKey: `thumbnail:${partId}`, priority: THUMBNAIL_PRIORITY, maxAttempts: THUMBNAIL_MAX_ATTEMPTS })),
  );
}

/** Enqueues thumbnail jobs for parts of the categories that got rows; returns how many were queued. */
export async function queueImportThumbnails(db: Db, summary: ImportSummary): Promise<number> {
  const categories = summary.categories.filter((c) => c.inserted + c.updated > 0).map((c) => c.category);
  if (categories.length === 0) return 0;
  // the queue schema may not exist yet on a database no worker or server has used
  await installQueue(db.pool);
  return enqueueThumbnails(db, { categories });
}

/** One thumbnail job as `jobs list --kind thumbnails` shows it. */
export interface ThumbnailJob {
  partId: string;
  part: string | null;
  category: string | null;
  state: 'queued' | 'processing' | 'failed';
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  runAt: Date;
}

/** The thumbnail backlog: running first, then waiting in run order, then failed. */
export async function listThumbnailJobs(db: Db, opts: { limit?: number } = {}): Promise<ThumbnailJob[]> {
  const { rows } = await sql<{
    key: string;
    name: string | null;
    category: string | null;
    locked_at: Date | null;
    attempts: number;
    max_attempts: number;
    last_error: string | null;
    run_at: Date;
  }>`
    SELECT j.key, p.name, p.category, j.locked_at, j.attempts, j.max_attempts, j.last_error, j.run_at
    FROM graphile_worker.jobs j LEFT JOIN parts p ON 'thumbnail:' || p.id = j.key
    WHERE j.task_identifier = ${THUMBNAIL_TASK}
    ORDER BY (j.locked_at IS NULL), (j.attempts >= j.max_attempts), j.priority, j.run_at, j.id
    LIMIT ${opts.limit ?? 50}`.execute(db.db);
  return rows.map((r) => ({
    partId: r.key.replace(/^thumbnail:/, ''),
    part: r.name,
    category: r.category,
    state: r.locked_at ? 'processing' : r.attempts >= r.max_attempts ? 'failed' : 'queued',
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    lastError: r.last_error,
    runAt: r.run_at,
  }));
}
