/** What `catalog import` calls after a successful import: queue thumbnails of the imported categories. */
import type { ImportSummary } from '../catalog/importer.js';
import type { Db } from '../db/database.js';
import { installQueue } from './queue.js';
import { enqueueThumbnails } from '../thumbnails/part-thumbnail.js';

/** Enqueues thumbnail jobs for parts of the categories that got rows; returns how many were queued. */
export async function queueImportThumbnails(db: Db, summary: ImportSummary): Promise<number> {
  const categories = summary.categories.filter((c) => c.inserted + c.updated > 0).map((c) => c.category);
  if (categories.length === 0) return 0;
  // the queue schema may not exist yet on a database no worker or server has used
  await installQueue(db.pool);
  return enqueueThumbnails(db, { categories });
}
