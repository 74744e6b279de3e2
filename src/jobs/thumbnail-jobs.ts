/**
 * Thumbnail jobs: the low-priority `thumbnail` task's queue side (the handler is
 * tasks/thumbnail.ts), what `catalog import` calls after an import, and the operators' view of
 * the backlog (`jobs list --kind thumbnails`; counts in queue/counts.ts for /health and /metrics).
 * A job is a batch of up to THUMBNAIL_BATCH_SIZE parts, rendered in one page session
 * (thumbnails/batch-thumbnails.ts); every view counts and lists parts, not jobs.
 */
import { sql } from 'kysely';
import type { ImportSummary } from '../catalog/importer.js';
import type { Db } from '../db/database.js';
import type { Category } from '../model/part.js';
import { CURRENT_THUMBNAIL_KEY } from '../thumbnails/part-thumbnail.js';
import { enqueueMany } from './queue/add-job.js';
import {
  dropFailedThumbnailJobsCoveredBy,
  thumbnailJobParts,
  waitingThumbnailPartIds,
} from './queue/graphile-tables.js';
import { installQueue } from './queue/runner.js';
import { THUMBNAIL_BATCH_SIZE } from './queue/task-map.js';

/** Queues `ids` as batch jobs (in the given order, THUMBNAIL_BATCH_SIZE a job); returns how many parts. */
export async function enqueueThumbnailBatches(
  db: Db,
  ids: readonly string[],
  opts: { isolated?: boolean } = {},
): Promise<number> {
  const jobs: { partIds: string[]; isolated?: boolean }[] = [];
  for (let i = 0; i < ids.length; i += THUMBNAIL_BATCH_SIZE)
    jobs.push({ partIds: ids.slice(i, i + THUMBNAIL_BATCH_SIZE), ...(opts.isolated ? { isolated: true } : {}) });
  await enqueueMany(
    db.db,
    'thumbnail',
    jobs.map((payload) => ({ payload })),
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
  const waiting = waitingThumbnailPartIds();
  let q = db.db
    .selectFrom('parts')
    .select('id')
    .where(sql<boolean>`image_key IS DISTINCT FROM ${CURRENT_THUMBNAIL_KEY}`)
    .where(sql<boolean>`id NOT IN (${waiting})`);
  if (opts.categories?.length) q = q.where('category', 'in', [...opts.categories]);
  const ids = (await q.orderBy('category').orderBy('id').execute()).map((r) => r.id);
  if (ids.length === 0) return 0;
  await dropFailedThumbnailJobsCoveredBy(db.db, ids);
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
  const rows = await thumbnailJobParts(db.db, opts.limit ?? 50);
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
