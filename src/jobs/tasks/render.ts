/**
 * The `render` task: claims a render, renders it with the warm engine, uploads the files and
 * marks it completed. Bad data fails at once; transient failures (browser or ffmpeg crash,
 * time-out) are retried by graphile-worker with backoff up to MAX_ATTEMPTS (queue/task-map.ts). The render row's
 * bookkeeping waits out a database outage (the rendered files are already stored), so the task
 * returns to graphile-worker, which then completes the queue job, only once PostgreSQL answers.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Db } from '../../db/database.js';
import { untilReachable } from '../../db/until-reachable.js';
import type { Logger } from '../../log.js';
import { framesPerSecond, renderDuration, renderResults } from '../../metrics.js';
import { chunkUnitFrames } from '../../model/chunk-unit.js';
import { RENDER_FILE_NAMES, renderArtifactKey } from '../../storage/artifact-key.js';
import type { ArtifactStore } from '../../storage/artifact-store.js';
import { planChunks, secondsPerFrame } from '../chunk-plan.js';
import { enqueueMany } from '../queue/add-job.js';
import type { Handler } from '../queue/task-map.js';
import type { RenderArtifacts } from '../render-row.js';
import { runRenderAttempt } from '../run-attempt.js';
import { claimRender, completeRender, failRender, recordProgress, requeueRender, splitRender } from '../render-lifecycle.js';
import type { RenderEngine } from '../../render/engine.js';
import { recordWorkerSpeed, slowestWorkerSpeed } from '../worker-speed.js';
import { loadRenderInput } from './render-input.js';

export { parseStoredRequest } from './render-input.js';

export interface RenderTaskContext {
  db: Db;
  store: ArtifactStore;
  engine: RenderEngine;
  log: Logger;
  /** this worker process's id (workers table) */
  workerId: string;
  timeoutMs: number;
  /** wanted seconds per chunk (chunk-plan.ts); 0 renders every render in one task */
  chunkSeconds: number;
}

export function renderTask(ctx: RenderTaskContext): Handler<'render'> {
  return async ({ renderId }, helpers) => {
    const { db } = ctx;
    let jlog = ctx.log.child({ renderId });
    // a write that must not be lost to a database outage: retried until PostgreSQL answers
    const record = <T>(op: () => Promise<T>) =>
      untilReachable(op, {
        signal: helpers.abortSignal,
        onWait: (err, waitedMs) =>
          jlog.warn({ err: err.message, waitedS: Math.round(waitedMs / 1000) }, 'database unavailable: keeping the render and retrying its bookkeeping'),
      });
    const claimed = await record(() => claimRender(db.db, renderId, { workerId: ctx.workerId, lockedBy: helpers.job.locked_by }));
    if (!claimed) {
      jlog.info('render already finished: nothing to do');
      return;
    }
    jlog = jlog.child({ cacheKey: claimed.cache_key.slice(0, 12), attempt: helpers.job.attempts });
    jlog.info('render started');
    await runRenderAttempt(
      {
        helpers,
        log: jlog,
        during: 'the render',
        timeoutMs: ctx.timeoutMs,
        scratch: 'job',
        progress: (p) => recordProgress(db.db, renderId, p.frame / p.total),
        messages: { failed: 'render failed', retry: 'render failed, will retry' },
        fail: async (reason) => {
          await record(() => failRender(db.db, renderId, reason));
          renderResults.inc({ result: 'failed' });
        },
        retry: async (reason) => {
          await record(() => requeueRender(db.db, renderId, reason));
          renderResults.inc({ result: 'retried' });
        },
      },
      async ({ tmp, signal, onProgress }) => {
        const { request, build } = await loadRenderInput(db, claimed, record);
        const o = request.options;
        if (ctx.chunkSeconds > 0) {
          // split when it is worth it: chunks sized for the slowest live worker, any worker renders them
          const spf = secondsPerFrame(o, await record(() => slowestWorkerSpeed(db, o.profile)));
          const ranges = planChunks({ frames: o.frames, unit: chunkUnitFrames(o), secondsPerFrame: spf, targetS: ctx.chunkSeconds });
          if (ranges.length > 1) {
            const plan = randomUUID();
            await record(() =>
              db.db.transaction().execute(async (trx) => {
                await splitRender(trx, renderId, plan, ranges);
                // at the priority its render job had (fair-priority.ts)
                  await enqueueMany(trx, 'render-chunk', ranges.map((r) => ({ payload: { renderId, plan, idx: r.idx }, priority: helpers.job.priority })));
              }),
            );
            jlog.info({ chunks: ranges.length, plan, estimatedFrameS: Math.round(spf * 1000) / 1000 }, 'render split into chunks');
            return;
          }
        }
        const result = await ctx.engine.render({
          build,
          options: o,
          outDir: tmp,
          signal,
          onProgress,
        });
        const artifacts: RenderArtifacts = {};
        let bytes = 0;
        for (const f of result.files) {
          const ext = path.extname(f.path);
          const name = f.kind === 'screenshot' ? `${RENDER_FILE_NAMES.screenshot}${ext}` : RENDER_FILE_NAMES[f.kind];
          const key = renderArtifactKey(claimed.cache_key, name);
          bytes += (await ctx.store.putFile(key, f.path, f.mime)).size;
          artifacts[f.kind] = key;
        }
        await record(() =>
          completeRender(db.db, renderId, {
            artifacts,
            spriteLayout: result.sprite ?? null,
            backend: result.backend,
            framesPerSecond: result.framesPerSecond,
            renderMs: result.timings.total,
            bytes,
          }),
        );
        await recordWorkerSpeed(db, ctx.workerId, o.profile, result.framesPerSecond, (o.width * o.height) / 1e6).catch(() => {});
        renderResults.inc({ result: 'completed' });
        renderDuration.observe({ format: claimed.format }, result.timings.total / 1000);
        framesPerSecond.set({ format: claimed.format }, result.framesPerSecond);
        jlog.info({ ms: Math.round(result.timings.total), fps: result.framesPerSecond, backend: result.backend }, 'render completed');
      },
    );
  };
}
