/**
 * The `render-chunk` task: renders frames [start, end) of a split render (engine.renderChunk:
 * whole H.264 segments for a video, whole sheet rows for a sprite, the hero still where it
 * falls), stores them as temporary pieces in the artifact store (any worker, on any machine,
 * can assemble them) and marks the chunk done; the chunk that leaves none undone queues the
 * assemble task in the same transaction. Retries, time-out, drain and dead-worker recovery
 * are per chunk: a crash loses only this chunk's frames. Every write after the claim is fenced
 * on this worker's claim (claim-fence.ts): when another worker has taken the chunk over
 * (this one was taken for dead), the result is dropped with one log line, never retried.
 */
import { enqueue } from '../queue/add-job.js';
import type { Handler } from '../queue/task-map.js';
import { fencedWork, runRenderAttempt } from '../run-attempt.js';
import { holderOf, staleOf } from '../claim-fence.js';
import {
  claimChunk,
  completeChunk,
  failChunk,
  holdsChunk,
  recordChunkProgress,
  requeueChunk,
  type ChunkPieces,
} from '../chunk-lifecycle.js';
import { chunkPieceKeys } from '../render-files.js';
import { recordWorkerSpeed } from '../worker-speed.js';
import { loadRenderInput } from './render-input.js';
import type { RenderTaskContext } from './render.js';

/** The render task's context (timeoutMs bounds one chunk here); chunks are not split again. */
export type ChunkTaskContext = Omit<RenderTaskContext, 'chunkSeconds'>;

export function renderChunkTask(ctx: ChunkTaskContext): Handler<'render-chunk'> {
  return async ({ renderId, plan, idx }, helpers) => {
    const { db } = ctx;
    let jlog = ctx.log.child({ renderId, chunk: idx });
    const { record, dropped, leave } = fencedWork(
      helpers,
      () => jlog,
      `chunk ${idx} of ${renderId}`,
      'chunk',
      ctx.workerId,
    );
    const claimed = await record(() =>
      claimChunk(db.db, renderId, plan, idx, {
        workerId: ctx.workerId,
        lockedBy: helpers.job.locked_by,
        pieces: (r) => chunkPieceKeys(r, plan, idx),
      }),
    );
    if (!claimed) {
      jlog.info('chunk has nothing to do: its render finished, failed or was split again');
      return;
    }
    const { render, chunk } = claimed;
    const me = holderOf(chunk);
    jlog = jlog.child({
      cacheKey: render.cache_key.slice(0, 12),
      frames: `${chunk.start_frame}-${chunk.end_frame}`,
      attempt: helpers.job.attempts,
    });
    jlog.info('chunk started');
    await runRenderAttempt(
      {
        helpers,
        log: jlog,
        during: 'the chunk',
        timeoutMs: ctx.timeoutMs,
        scratch: 'chunk',
        progress: (p) => recordChunkProgress(db.db, renderId, plan, idx, me, p.frame),
        messages: { failed: 'chunk failed: the render failed', retry: 'chunk failed, will retry' },
        fail: async (reason) => staleOf(await record(() => failChunk(db.db, renderId, plan, idx, me, reason))),
        retry: async (reason) => staleOf(await record(() => requeueChunk(db.db, renderId, plan, idx, me, reason))),
        dropped,
      },
      async ({ tmp, signal, onProgress }) => {
        const { request, build } = await loadRenderInput(db, render, record);
        const o = request.options;
        const result = await ctx.engine.renderChunk({
          build,
          options: o,
          start: chunk.start_frame,
          end: chunk.end_frame,
          outDir: tmp,
          signal,
          onProgress,
        });
        // taken over meanwhile: drop before uploading (no overwriting the new holder's pieces, no
        // orphans). Asked once: in a database outage the pieces are stored anyway, so the finished
        // chunk is kept, and completeChunk's fence decides when PostgreSQL is back
        const before = await holdsChunk(db.db, renderId, plan, idx, me).catch(() => undefined);
        if (before && !before.held) return dropped(before);
        const keys = chunkPieceKeys(render, plan, idx);
        const pieces: ChunkPieces = {};
        for (const piece of result.pieces) {
          const key = keys[piece.kind];
          if (!key) throw new Error(`chunk produced an unexpected ${piece.kind} piece`);
          await ctx.store.putFile(key, piece.path, piece.mime);
          pieces[piece.kind] = key;
        }
        const left = await record(() =>
          db.db.transaction().execute(async (trx) => {
            const r = await completeChunk(trx, renderId, plan, idx, me, {
              pieces,
              renderMs: result.timings.total,
              backend: result.backend,
            });
            if (r.held && r.remaining === 0) await enqueue(trx, 'render-assemble', { renderId, plan });
            return r;
          }),
        );
        await recordWorkerSpeed(db, ctx.workerId, o.profile, result.framesPerSecond, (o.width * o.height) / 1e6).catch(
          () => {},
        );
        if (!left.held) return dropped(left);
        jlog.info(
          { ms: Math.round(result.timings.total), fps: result.framesPerSecond, left: left.remaining },
          'chunk done',
        );
      },
    );
    leave();
  };
}
