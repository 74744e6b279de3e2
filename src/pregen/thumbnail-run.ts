/**
 * `pregen --thumbnails`: renders the product shots of the parts that lack a current one, with
 * `concurrency` warm engines, each drawing batches of parts in one page session
 * (thumbnails/batch-thumbnails.ts), reporting through the same observers (UI, plain lines) as pregen.
 */
import type { PartRow } from '../catalog/parts.js';
import type { Db } from '../db/database.js';
import type { RenderEngine } from '../render/engine.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { oneLine } from './local-executor.js';
import type { ItemRef, PregenObserver } from './progress.js';
import { fanOut, type FailedItem } from './runner.js';
import { THUMBNAIL_BATCH_SIZE } from '../jobs/queue/task-map.js';
import { renderThumbnailBatch } from '../thumbnails/batch-thumbnails.js';
import { THUMBNAIL_SIZE } from '../thumbnails/part-thumbnail.js';

export interface ThumbnailRunOptions {
  db: Db;
  store: ArtifactStore;
  concurrency: number;
  signal: AbortSignal;
  observers: PregenObserver[];
  createEngine: () => Promise<RenderEngine>;
}

export interface ThumbnailRunSummary {
  planned: number;
  rendered: number;
  failed: FailedItem[];
  cancelled: number;
  interrupted: boolean;
  elapsedMs: number;
}

/** Renders a thumbnail for each of `parts`. */
export async function runThumbnails(parts: PartRow[], opts: ThumbnailRunOptions): Promise<ThumbnailRunSummary> {
  const started = performance.now();
  const items: (ItemRef & { part: PartRow })[] = parts.map((part, i) => ({
    index: i + 1,
    label: part.id,
    variant: `${part.category} ${THUMBNAIL_SIZE}x${THUMBNAIL_SIZE}  ${part.name.slice(0, 40)}`,
    action: 'render',
    frames: 1,
    part,
  }));
  const summary: ThumbnailRunSummary = {
    planned: items.length,
    rendered: 0,
    failed: [],
    cancelled: 0,
    interrupted: false,
    elapsedMs: 0,
  };
  const observer = fanOut([
    {
      done: () => summary.rendered++,
      fail: (i, reason) => summary.failed.push({ index: i.index, label: i.label, variant: i.variant, reason }),
      cancel: () => summary.cancelled++,
    },
    ...opts.observers,
  ]);
  observer.plan(items);
  const queue = [...items];
  const engines: RenderEngine[] = [];
  try {
    if (queue.length && !opts.signal.aborted) {
      const slots = Math.max(1, Math.min(opts.concurrency, queue.length));
      for (let k = 0; k < slots; k++) engines.push(await opts.createEngine());
      // batches of parts, one page session each (batch-thumbnails.ts); small enough to share out among the engines
      const size = Math.max(1, Math.min(THUMBNAIL_BATCH_SIZE, Math.ceil(queue.length / slots)));
      await Promise.all(
        engines.map(async (engine) => {
          while (queue.length && !opts.signal.aborted) {
            const batch = queue.splice(0, size);
            const byId = new Map(batch.map((item) => [item.part.id, item]));
            // the page draws the batch in order: each outcome starts the next part's line
            let next = 0;
            observer.start(batch[next++]!);
            try {
              await renderThumbnailBatch(
                { db: opts.db, store: opts.store, engine },
                batch.map((i) => i.part),
                {
                  signal: opts.signal,
                  onPart: (o) => {
                    const item = byId.get(o.ok ? o.result.partId : o.failure.partId)!;
                    // outcomes come a few at a time (attached together): every item is started before its outcome
                    while (next <= batch.indexOf(item)) observer.start(batch[next++]!);
                    if (o.ok) observer.done(item, { ms: o.result.ms, bytes: o.result.bytes, fps: 0 });
                    else observer.fail(item, o.failure.error);
                    byId.delete(item.part.id);
                    if (next < batch.length) observer.start(batch[next++]!);
                  },
                },
              );
            } catch (err) {
              // the batch crashed or was cancelled: what has no outcome yet fails (or is cancelled) with it
              for (const item of byId.values()) {
                if (opts.signal.aborted) observer.cancel(item);
                else observer.fail(item, oneLine(err));
              }
            }
          }
        }),
      );
    }
  } finally {
    for (const item of queue) observer.cancel(item);
    await Promise.all(engines.map((e) => e.close().catch(() => {})));
    summary.interrupted = opts.signal.aborted;
    summary.elapsedMs = Math.round(performance.now() - started);
    observer.finish({ interrupted: summary.interrupted });
  }
  return summary;
}
