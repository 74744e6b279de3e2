/**
 * A render worker: joins the graphile-worker farm on the shared Postgres, keeps a warm browser,
 * heartbeats (with what it reports: worker-report.ts), sweeps dead workers, and drains on stop
 * (no new jobs; the running one finishes within the drain bound or is released for retry), or
 * when a heartbeat finds a drain asked for through the database (`workers drain`: workers
 * listen on no port). It rides out database outages: renders
 * wait to record their result (tasks/render.ts), graphile-worker retries completing queue jobs,
 * and a graphile runner that gives up is replaced.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { Runner, WorkerEvents } from 'graphile-worker';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { untilReachable } from '../db/until-reachable.js';
import type { Logger } from '../log.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { forceUnlockWithUtils, installQueue, startRunner as startQueueRunner } from './queue/runner.js';
import { createRenderEngine, type RenderEngine } from '../render/engine.js';
import { HEARTBEAT_MS, startSweeper, unlockGraphileWorkers } from './sweeper.js';
import { releaseWorkerChunks } from './chunk-lifecycle.js';
import { releaseWorkerRenders } from './render-lifecycle.js';
import { renderTask } from './tasks/render.js';
import { renderChunkTask } from './tasks/render-chunk.js';
import { renderAssembleTask } from './tasks/render-assemble.js';
import { thumbnailTask } from './tasks/thumbnail.js';
import { retentionTask } from './tasks/retention.js';
import { retentionCrontab } from './retention.js';
import type { TaskHandlers } from './queue/task-map.js';
import { markWorkerStopped, recordHeartbeat, registerWorker } from './workers-repository.js';
import { WorkerReport } from './worker-report.js';
import { VERSION } from '../version.js';
import { rendererVersion } from '../render/renderer-version.js';

export interface WorkerOptions {
  concurrency: number;
  /** bound on a single render */
  renderTimeoutMs: number;
  /** how long stop() waits for running renders before releasing them */
  drainTimeoutMs: number;
  /** wanted seconds per chunk; default config chunkSeconds (0: never split) */
  chunkSeconds?: number;
  /** inject an engine (tests); otherwise one is created from config */
  engine?: RenderEngine;
}

export interface RunningWorker {
  id: string;
  engine: RenderEngine;
  /** the graphile-worker runner taking jobs now (replaced if one stops unexpectedly) */
  readonly runner: Runner;
  /** graphile-worker's events (job:start, job:complete, ...): what tests and embedders wait on */
  events: WorkerEvents;
  /** renders (and thumbnail batches) running now: what a drain waits for */
  running(): number;
  /**
   * Drains and stops; resolves when the process may exit. `now` aborting ends the drain early
   * (a second Ctrl-C): the running renders are released for retry at once, as at the drain bound.
   */
  stop(opts?: { now?: AbortSignal }): Promise<void>;
  /** resolves once the worker has stopped, whoever stopped it (stop(), or a drain asked through the database) */
  done: Promise<void>;
}

export async function startWorker(
  cfg: Config,
  db: Db,
  store: ArtifactStore,
  log: Logger,
  opts: WorkerOptions,
): Promise<RunningWorker> {
  await installQueue(db.pool);
  const id = `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const wlog = log.child({ worker: id });
  // the fake stage (test/bench only, RENDER_FARM_FAKE_STAGE_MS) replaces Chromium and nothing else
  const engine =
    opts.engine ??
    (cfg.fakeStageMs > 0
      ? await (await import('../render/fake-engine.js')).createFakeEngine(cfg, {
          frameMs: cfg.fakeStageMs,
          log: (line) => wlog.warn(line),
        })
      : await createRenderEngine(cfg, { log: (line) => wlog.info(line) }));
  // the GL self-test runs before joining, so a worker without WebGL never takes jobs
  const info = await engine.info();
  wlog.info(info, 'renderer ready');

  await registerWorker(db, {
    id,
    hostname: os.hostname(),
    pid: process.pid,
    concurrency: opts.concurrency,
    backend: info,
    version: VERSION,
    rendererVersion: await rendererVersion(),
  });
  const graphileIds: string[] = [];
  const report = new WorkerReport(db, id);
  let heartbeatFailing = false;
  let beating: Promise<void> = Promise.resolve();
  // set once stop() exists below: a drain asked through the database stops the worker as SIGTERM does
  let drain: () => void = () => {};
  const heartbeat = async () => {
    try {
      const { revived, drainRequested } = await recordHeartbeat(db, id, graphileIds, report.snapshot());
      // its running jobs were freed for other workers; they may render them too (harmless)
      if (revived) wlog.warn('this worker had been taken for dead (silent past the bound); it is live again');
      if (drainRequested) drain();
      if (heartbeatFailing) wlog.info('heartbeat: the database answers again');
      heartbeatFailing = false;
    } catch (err) {
      // once per outage, not every few seconds
      if (!heartbeatFailing)
        wlog.warn(
          { err: (err as Error).message },
          'heartbeat failed: the database is unreachable; renders go on and wait to record their results',
        );
      heartbeatFailing = true;
    }
  };
  const beat = setInterval(() => (beating = heartbeat()), HEARTBEAT_MS);
  beat.unref();
  const stopSweeper = startSweeper(
    db,
    (r) => wlog.warn(r, 'freed the jobs of dead workers'),
    undefined,
    store,
    cfg.workerDeadAfterSeconds,
  );

  // the render worker's handlers (webhook deliveries run in their own runner: webhooks/delivery-runner.ts)
  const handlers: TaskHandlers = report.wrap({
    render: renderTask({
      db,
      store,
      engine,
      log: wlog,
      workerId: id,
      timeoutMs: opts.renderTimeoutMs,
      chunkSeconds: opts.chunkSeconds ?? cfg.chunkSeconds,
    }),
    'render-chunk': renderChunkTask({ db, store, engine, log: wlog, workerId: id, timeoutMs: opts.renderTimeoutMs }),
    'render-assemble': renderAssembleTask({ db, store, engine, log: wlog }),
    thumbnail: thumbnailTask({ db, store, engine, log: wlog, timeoutMs: opts.renderTimeoutMs }),
    retention: retentionTask({ db, store, cfg, log: wlog }),
  });
  // one emitter for every runner (a replaced runner keeps the same events for embedders and tests)
  const events: WorkerEvents = new EventEmitter();
  // what a drain waits for: renders under way (retention is housekeeping, not worth the wait)
  const runningJobs = new Set<string>();
  events.on('job:start', ({ job }) => {
    if (job.task_identifier !== 'retention') runningJobs.add(job.id);
  });
  for (const ended of ['job:success', 'job:error'] as const) events.on(ended, ({ job }) => runningJobs.delete(job.id));
  /** a graphile runner and the id its jobs are locked by */
  const startRunner = async (): Promise<{ runner: Runner; ids: string[] }> => {
    const ids: string[] = [];
    // the pool's id, not its workers': graphile-worker >= 0.17 sets locked_by to the WorkerPool's
    // id, so only that id frees this runner's jobs (force_unlock_workers). Listen before run():
    // the pool is created before run() resolves
    const onCreate = ({ workerPool }: { workerPool: { id: string } }) => {
      ids.push(workerPool.id);
      graphileIds.push(workerPool.id);
    };
    events.on('pool:create', onCreate);
    const runner = await startQueueRunner({
      pool: db.pool,
      log: wlog,
      concurrency: opts.concurrency,
      pollInterval: 1_000,
      // graphile aborts running tasks this long after stop(); that is our drain bound
      gracefulShutdownAbortTimeout: opts.drainTimeoutMs,
      events,
      // batched (delay 0) completion retries with backoff for minutes when the database is
      // away; unbatched, a refused connection rejects unhandled and the process exits
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
      // storage retention every few minutes: graphile's cron queues one job per tick for the whole farm
      crontab: retentionCrontab(cfg),
      handlers,
    }).finally(() => events.off('pool:create', onCreate));
    return { runner, ids };
  };
  let current = await startRunner();
  await heartbeat();

  let stopping: Promise<void> | null = null;
  let restarting: Promise<void> | null = null;
  const stopRequested = new AbortController();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  // a runner that ends while we are not stopping gave up (its completion retries ran out):
  // free what it still holds and take jobs again with a new one, or the process would
  // heartbeat while taking no jobs
  const supervise = (started: { runner: Runner; ids: string[] }) => {
    void started.runner.promise
      .catch(() => {})
      .then(() => {
        if (stopping) return;
        restarting = (async () => {
          wlog.error('the job runner stopped unexpectedly: freeing its jobs and starting a new one');
          // none of its workers runs anything any more, so their locks are stale
          await untilReachable(() => unlockGraphileWorkers(db.db, started.ids), {
            signal: stopRequested.signal,
            onWait: (err) =>
              wlog.warn({ err: err.message }, 'database unavailable: waiting to free the jobs of the stopped runner'),
          }).catch((err) =>
            wlog.warn({ err: (err as Error).message }, 'could not free the jobs of the stopped runner'),
          );
          graphileIds.splice(0, graphileIds.length, ...graphileIds.filter((g) => !started.ids.includes(g)));
          for (let delay = 1_000; !stopping; delay = Math.min(30_000, delay * 2)) {
            try {
              current = await startRunner();
              wlog.info('job runner restarted');
              supervise(current);
              return;
            } catch (err) {
              wlog.warn({ err: (err as Error).message, retryInS: delay / 1000 }, 'job runner did not start');
              await sleep(delay);
            }
          }
        })().finally(() => {
          restarting = null;
        });
      });
  };
  supervise(current);

  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const stop = ({ now }: { now?: AbortSignal } = {}): Promise<void> => {
    stopping ??= (async () => {
      wlog.info('draining: no new jobs');
      stopRequested.abort();
      await restarting;
      const runner = current.runner;
      // graphile aborts the running renders at the drain bound; this is the safety net after it
      const bound = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), opts.drainTimeoutMs + 15_000).unref());
      const hurried = new Promise<'now'>((r) =>
        now?.aborted ? r('now') : now?.addEventListener('abort', () => r('now'), { once: true }),
      );
      // a runner that already ended (it gave up) rejects stop(): nothing left to drain
      const outcome = await Promise.race([
        runner.stop().then(
          () => 'drained' as const,
          () => 'drained' as const,
        ),
        bound,
        hurried,
      ]);
      if (outcome !== 'drained') {
        wlog.warn(
          outcome === 'now'
            ? 'asked to stop now: releasing running renders for retry'
            : 'drain bound reached: releasing running renders for retry',
        );
        await runner.kill().catch(() => {});
        await releaseWorkerRenders(db.db, [id]).catch(() => {});
        await releaseWorkerChunks(db.db, [id]).catch(() => {});
        await forceUnlockWithUtils(db.pool, graphileIds, wlog).catch(() => {});
      }
      clearInterval(beat);
      // a heartbeat in flight would clear the stopped mark set below
      await beating;
      stopSweeper();
      await markWorkerStopped(db, id, report.snapshot()).catch(() => {});
      if (!opts.engine) await engine.close();
      wlog.info('worker stopped');
    })().finally(resolveDone);
    return stopping;
  };
  drain = () => {
    if (stopping) return;
    wlog.info('drain requested through the database (workers drain, or the console)');
    void stop();
  };

  return {
    id,
    engine,
    get runner() {
      return current.runner;
    },
    events,
    running: () => runningJobs.size,
    stop,
    done,
  };
}
