/**
 * The `render` task: claims a render, renders it with the warm engine, uploads the files and
 * marks it completed. Bad data fails at once; transient failures (browser or ffmpeg crash,
 * time-out) are retried by graphile-worker with backoff up to MAX_ATTEMPTS (queue/task-map.ts). The render row's
 * bookkeeping waits out a database outage (the rendered files are already stored), so the task
 * returns to graphile-worker, which then completes the queue job, only once PostgreSQL answers.
 * Every write after the claim is fenced on this worker's claim (claim-fence.ts): a worker
 * taken for dead whose render another worker has claimed since drops its result (one log line)
 * instead of retrying, failing or completing it.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Db } from '../../db/database.js';
import type { Logger } from '../../log.js';
import { framesPerSecond, renderDuration, renderResults } from '../../metrics.js';
import { chunkUnitFrames } from '../../model/chunk-unit.js';
import type { ArtifactStore } from '../../storage/artifact-store.js';
import { planChunks, secondsPerFrame } from '../chunk-plan.js';
import { enqueueMany } from '../queue/add-job.js';
import type { Handler } from '../queue/task-map.js';
import { renderFileKey } from '../render-files.js';
import type { RenderArtifacts } from '../render-row.js';
import { fencedWork, runRenderAttempt } from '../run-attempt.js';
import { holderOf, staleOf } from '../claim-fence.js';
import { splitRender } from '../chunk-lifecycle.js';
import { claimRender, completeRender, failRender, recordProgress, requeueRender } from '../render-lifecycle.js';
import type { RenderEngine } from '../../render/engine.js';
import { farmSpeed, recordWorkerSpeed } from '../worker-speed.js';
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
    const { record, dropped, leave } = fencedWork(helpers, () => jlog, `render ${renderId}`, 'render', ctx.workerId);
    const claimed = await record(() =>
      claimRender(db.db, renderId, { workerId: ctx.workerId, lockedBy: helpers.job.locked_by }),
    );
    if (!claimed) {
      jlog.info('render already finished: nothing to do');
      return;
    }
    const me = holderOf(claimed);
    jlog = jlog.child({ cacheKey: claimed.cache_key.slice(0, 12), attempt: helpers.job.attempts });
    jlog.info('render started');
    await runRenderAttempt(
      {
        helpers,
        log: jlog,
        during: 'the render',
        timeoutMs: ctx.timeoutMs,
        scratch: 'job',
        progress: (p) => recordProgress(db.db, renderId, me, p.frame / p.total),
        messages: { failed: 'render failed', retry: 'render failed, will retry' },
        fail: async (reason) => {
          const stale = staleOf(await record(() => failRender(db.db, renderId, me, reason)));
          if (!stale) renderResults.inc({ result: 'failed' });
          return stale;
        },
        retry: async (reason) => {
          const stale = staleOf(await record(() => requeueRender(db.db, renderId, me, reason)));
          if (!stale) renderResults.inc({ result: 'retried' });
          return stale;
        },
        dropped,
      },
      async ({ tmp, signal, onProgress }) => {
        const { request, build } = await loadRenderInput(db, claimed, record);
        const o = request.options;
        if (ctx.chunkSeconds > 0) {
          // split when it pays (chunk-plan.ts): chunks sized for the slowest live worker's figure
          // for this profile and frame size, any worker renders them
          const speed = await record(() => farmSpeed(db, o.profile, (o.width * o.height) / 1e6));
          const spf = secondsPerFrame(o, speed.sPerMp);
          const ranges = planChunks({
            frames: o.frames,
            unit: chunkUnitFrames(o),
            secondsPerFrame: spf,
            targetS: ctx.chunkSeconds,
            workers: speed.workers,
          });
          if (ranges.length > 1) {
            const plan = randomUUID();
            const split = await record(() =>
              db.db.transaction().execute(async (trx) => {
                const r = await splitRender(trx, renderId, me, plan, ranges);
                // at the priority its render job had (fair-priority.ts)
                if (r.held)
                  await enqueueMany(
                    trx,
                    'render-chunk',
                    ranges.map((c) => ({ payload: { renderId, plan, idx: c.idx }, priority: helpers.job.priority })),
                  );
                return r;
              }),
            );
            if (!split.held) return dropped(split);
            jlog.info(
              { chunks: ranges.length, plan, estimatedFrameS: Math.round(spf * 1000) / 1000, workers: speed.workers },
              'render split into chunks',
            );
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
          const key = renderFileKey(claimed.cache_key, f.kind, path.extname(f.path));
          bytes += (await ctx.store.putFile(key, f.path, f.mime)).size;
          artifacts[f.kind] = key;
        }
        const completed = await record(() =>
          completeRender(db.db, renderId, me, {
            artifacts,
            spriteLayout: result.sprite ?? null,
            backend: result.backend,
            framesPerSecond: result.framesPerSecond,
            renderMs: result.timings.total,
            bytes,
          }),
        );
        await recordWorkerSpeed(db, ctx.workerId, o.profile, result.framesPerSecond, (o.width * o.height) / 1e6).catch(
          () => {},
        );
        // the files are the same bytes whoever rendered them (same cache key): only the row is not ours
        if (!completed.held) return dropped(completed);
        renderResults.inc({ result: 'completed' });
        renderDuration.observe({ format: claimed.format }, result.timings.total / 1000);
        framesPerSecond.set({ format: claimed.format }, result.framesPerSecond);
        jlog.info(
          { ms: Math.round(result.timings.total), fps: result.framesPerSecond, backend: result.backend },
          'render completed',
        );
      },
    );
    leave();
  };
}
