/**
 * Thumbnail jobs: the low-priority `thumbnail` task's queue side (the handler is
 * tasks/thumbnail.ts), and what `catalog import` calls after an import.
 */
import { sql } from 'kysely';
import type { ImportSummary } from '../catalog/importer.js';
import type { Db } from '../db/database.js';
import type { Category } from '../model/part.js';
import { CURRENT_THUMBNAIL_KEY } from '../thumbnails/part-thumbnail.js';
import { installQueue } from './queue.js';

/** graphile-worker task name. */
export const THUMBNAIL_TASK = 'thumbnail';
/** Queue priority: graphile runs lower numbers first, renders are 0, so thumbnails wait for them. */
export const THUMBNAIL_PRIORITY = 100;

/**
 * Enqueues a low-priority `thumbnail` job for every part (of `categories`) that lacks a
 * current thumbnail, in one statement. The job key (one per part) keeps a re-import from
 * queueing a part twice. The queue schema must be installed (installQueue).
 */
export async function enqueueThumbnails(db: Db, opts: { categories?: readonly Category[] } = {}): Promise<number> {
  const cats = opts.categories?.length ? sql`AND category = ANY(${[...opts.categories]}::text[])` : sql``;
  const r = await sql<{ n: string }>`
    WITH queued AS (
      SELECT graphile_worker.add_job(${THUMBNAIL_TASK}, json_build_object('partId', id), job_key := 'thumbnail:' || id,
        priority := ${THUMBNAIL_PRIORITY}, max_attempts := 3)
      FROM parts
      WHERE image_key IS DISTINCT FROM ${CURRENT_THUMBNAIL_KEY} ${cats}
    )
    SELECT count(*) AS n FROM queued`.execute(db.db);
  return Number(r.rows[0]?.n ?? 0);
}

/** Enqueues thumbnail jobs for parts of the categories that got rows; returns how many were queued. */
export async function queueImportThumbnails(db: Db, summary: ImportSummary): Promise<number> {
  const categories = summary.categories.filter((c) => c.inserted + c.updated > 0).map((c) => c.category);
  if (categories.length === 0) return 0;
  // the queue schema may not exist yet on a database no worker or server has used
  await installQueue(db.pool);
  return enqueueThumbnails(db, { categories });
}
