/**
 * The `thumbnail` task: renders the product shots of a batch of parts in one page session
 * (src/thumbnails/batch-thumbnails.ts) with the worker's warm engine. Enqueued at low priority
 * by `catalog import`, so renders go first. Parts gone from the catalog or already carrying a
 * thumbnail of their current version are skipped (a retried batch redoes only what is left).
 *
 * Failures, so that one part cannot hold the others back for ever:
 *   - a part that fails in a batch is logged and skipped; the batch completes, and the failed
 *     parts are queued again as one `isolated` job;
 *   - an isolated job (or a one-part job) throws when a part fails, so graphile retries it with
 *     backoff up to its attempts and then keeps it as failed (visible in every view, with the error);
 *   - a batch that crashes (the page or browser died) is split: the part it was on goes into an
 *     isolated job, the parts after it into a new batch, and the job completes; cancels and
 *     time-outs are thrown for graphile to retry.
 */
import { getPartsByIds } from '../../catalog/parts.js';
import type { Db } from '../../db/database.js';
import type { Logger } from '../../log.js';
import { thumbnailKey } from '../../storage/artifact-key.js';
import { renderThumbnailBatch } from '../../thumbnails/batch-thumbnails.js';
import type { Handler } from '../queue/task-map.js';
import { enqueueThumbnailBatches } from '../thumbnail-jobs.js';
import type { ArtifactStore } from '../../storage/artifact-store.js';
import type { RenderEngine } from '../../render/engine.js';
import { ThumbnailSummary } from '../thumbnail-summary.js';

export interface ThumbnailTaskContext {
  db: Db;
  store: ArtifactStore;
  engine: RenderEngine;
  log: Logger;
  /** bound on one batch */
  timeoutMs: number;
}

export function thumbnailTask(ctx: ThumbnailTaskContext): Handler<'thumbnail'> {
  const summary = new ThumbnailSummary(ctx.db, ctx.log);
  return async (payload, helpers) => {
    const ids = 'partIds' in payload ? payload.partIds : [payload.partId];
    // one-part jobs (queued before batches) fail and retry as isolated ones always did
    const isolated = 'partIds' in payload ? payload.isolated === true || ids.length === 1 : true;
    const found = await getPartsByIds(ctx.db, ids);
    if (found.length < ids.length) {
      const gone = ids.filter((id) => !found.some((p) => p.id === id));
      ctx.log.info({ partIds: gone }, `thumbnail: ${gone.length} part(s) no longer in the catalog`);
    }
    const parts = found.filter((p) => p.image_key !== thumbnailKey(p.id, p.version));
    if (parts.length === 0) return;
    const signal = AbortSignal.any([AbortSignal.timeout(ctx.timeoutMs), helpers.abortSignal]);
    const settled = new Set<string>();
    let result;
    try {
      result = await renderThumbnailBatch(ctx, parts, {
        signal,
        onPart: (o) => {
          settled.add(o.ok ? o.result.partId : o.failure.partId);
          if (!o.ok) return;
          ctx.log.debug(
            {
              partId: o.result.partId,
              key: o.result.key,
              ms: o.result.ms,
              bytes: o.result.bytes,
              attached: o.result.attached,
            },
            'thumbnail rendered',
          );
          summary.add(o.result.ms);
        },
      });
    } catch (err) {
      if (signal.aborted || isolated) throw err;
      const left = parts.filter((p) => !settled.has(p.id)).map((p) => p.id);
      if (left.length === 0) throw err;
      const [suspect, ...rest] = left;
      ctx.log.warn(
        { partId: suspect, err: (err as Error).message, requeued: left.length },
        'thumbnail batch crashed: the part it was on is retried alone, the rest as a new batch',
      );
      await enqueueThumbnailBatches(ctx.db, [suspect!], { isolated: true });
      await enqueueThumbnailBatches(ctx.db, rest);
      return;
    }
    for (const f of result.failed) ctx.log.warn({ partId: f.partId, err: f.error }, 'thumbnail failed');
    if (result.failed.length === 0) return;
    if (isolated) {
      const list = result.failed.map((f) => `${f.partId}: ${f.error}`).join('; ');
      // graphile retries with backoff (only these parts are left to draw) up to max_attempts
      throw new Error(`${result.failed.length} of ${parts.length} thumbnails failed: ${list}`.slice(0, 2000));
    }
    await enqueueThumbnailBatches(
      ctx.db,
      result.failed.map((f) => f.partId),
      { isolated: true },
    );
  };
}
