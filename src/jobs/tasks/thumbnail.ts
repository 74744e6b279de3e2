/**
 * The `thumbnail` task: renders a part's product shot (src/thumbnails/part-thumbnail.ts) with the
 * worker's warm engine. Enqueued at low priority by `catalog import`, so renders go first.
 * A part already carrying a thumbnail of its current version, or gone, is done at once.
 */
import { getPartsByIds } from '../../catalog/repository.js';
import type { Db } from '../../db/database.js';
import type { Logger } from '../../log.js';
import { thumbnailKey } from '../../storage/artifact-key.js';
import { renderThumbnail } from '../../thumbnails/part-thumbnail.js';
import { thumbnailTaskSpec } from '../thumbnail-jobs.js';
import type { ArtifactStore } from '../../storage/artifact-store.js';
import type { RenderEngine } from '../../render/engine.js';
import { defineTask } from './registry.js';
import { ThumbnailSummary } from '../thumbnail-summary.js';

export interface ThumbnailTaskContext {
  db: Db;
  store: ArtifactStore;
  engine: RenderEngine;
  log: Logger;
  timeoutMs: number;
}

export function thumbnailTask(ctx: ThumbnailTaskContext) {
  const summary = new ThumbnailSummary(ctx.db, ctx.log);
  return defineTask({
    ...thumbnailTaskSpec,
    async run({ partId }, helpers) {
      const [part] = await getPartsByIds(ctx.db, [partId]);
      if (!part) {
        ctx.log.info({ partId }, 'thumbnail: part no longer in the catalog');
        return;
      }
      if (part.image_key === thumbnailKey(part.id, part.version)) return;
      const signal = AbortSignal.any([AbortSignal.timeout(ctx.timeoutMs), helpers.abortSignal]);
      // a failure throws: graphile-worker retries with backoff up to the job's max_attempts
      const r = await renderThumbnail(ctx, part, signal);
      ctx.log.debug({ partId, key: r.key, ms: r.ms, bytes: r.bytes, attached: r.attached }, 'thumbnail rendered');
      summary.add(r.ms);
    },
  });
}
