/**
 * A render worker: joins the graphile-worker farm on the shared Postgres, keeps a warm browser,
 * heartbeats, sweeps dead workers, and drains on stop (no new jobs; the running one finishes
 * within the drain bound or is released for retry).
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { WorkerEvents } from 'graphile-worker';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Logger } from '../log.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { installQueue, quietLogger } from './queue.js';
import { createRenderEngine, type RenderEngine } from '../render/engine.js';
import { HEARTBEAT_MS, startSweeper } from './sweeper.js';
import { renderTask } from './tasks/render.js';
import { thumbnailTask } from './tasks/thumbnail.js';
import { toTaskList } from './tasks/registry.js';

export interface WorkerOptions {
  concurrency: number;
  /** bound on a single render */
  renderTimeoutMs: number;
  /** how long stop() waits for running renders before releasing them */
  drainTimeoutMs: number;
  /** inject an engine (tests); otherwise one is created from config */
  engine?: RenderEngine;
}

export interface RunningWorker {
  id: string;
  engine: RenderEngine;
  /** graphile-worker's events (job:start, job:complete, ...): what tests and embedders wait on */
  events: WorkerEvents;
  /** drains and stops; resolves when the process may exit */
  stop(): Promise<void>;
}

export async function startWorker(cfg: Config, db: Db, store: ArtifactStore, log: Logger, opts: WorkerOptions): Promise<RunningWorker> {
  const gw = await import('graphile-worker');
  await installQueue(db.pool);
  const id = `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const wlog = log.child({ worker: id });
  const engine = opts.engine ?? (await createRenderEngine(cfg, { log: (line) => wlog.info(line) }));
  // the GL self-test runs before joining, so a worker without WebGL never takes jobs
  const info = await engine.info();
  wlog.info(info, 'renderer ready');

  await db.db
    .insertInto('workers')
    .values({ id, hostname: os.hostname(), pid: process.pid, concurrency: opts.concurrency, backend: JSON.stringify(info) })
    .execute();
  const graphileIds: string[] = [];
  const heartbeat = async () => {
    await db.db
      .updateTable('workers')
      .set({ last_seen: new Date(), graphile_ids: graphileIds })
      .where('id', '=', id)
      .execute()
      .catch((err) => wlog.warn({ err: (err as Error).message }, 'heartbeat failed'));
  };
  const beat = setInterval(heartbeat, HEARTBEAT_MS);
  beat.unref();
  const stopSweeper = startSweeper(db, (r) => wlog.warn(r, 'freed the jobs of dead workers'));

  // listen before run(): the pool creates its workers before run() resolves
  const events: WorkerEvents = new EventEmitter();
  events.on('worker:create', ({ worker }) => {
    graphileIds.push(worker.workerId);
  });
  const runner = await gw.run({
    pgPool: db.pool,
    concurrency: opts.concurrency,
    noHandleSignals: true,
    pollInterval: 1_000,
    // graphile aborts running tasks this long after stop(); that is our drain bound
    gracefulShutdownAbortTimeout: opts.drainTimeoutMs,
    events,
    logger: quietLogger(gw.Logger),
    taskList: toTaskList([
      renderTask({ db, store, engine, log: wlog, workerId: id, timeoutMs: opts.renderTimeoutMs }),
      thumbnailTask({ db, store, engine, log: wlog, timeoutMs: opts.renderTimeoutMs }),
    ]),
  });
  await heartbeat();

  let stopping: Promise<void> | null = null;
  return {
    id,
    engine,
    events,
    stop: () => {
      stopping ??= (async () => {
        wlog.info('draining: no new jobs');
        // graphile aborts the running renders at the drain bound; this is the safety net after it
        const bound = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), opts.drainTimeoutMs + 15_000).unref());
        const outcome = await Promise.race([runner.stop().then(() => 'drained' as const), bound]);
        if (outcome === 'timeout') {
          wlog.warn('drain bound reached: releasing running renders for retry');
          await runner.kill().catch(() => {});
          await db.db
            .updateTable('renders')
            .set({ status: 'queued', progress: 0, updated_at: new Date() })
            .where('worker_id', '=', id)
            .where('status', '=', 'processing')
            .execute()
            .catch(() => {});
          await gw
            .makeWorkerUtils({ pgPool: db.pool, logger: quietLogger(gw.Logger) })
            .then(async (u) => {
              await u.forceUnlockWorkers(graphileIds);
              await u.release();
            })
            .catch(() => {});
        }
        clearInterval(beat);
        stopSweeper();
        await db.db.updateTable('workers').set({ stopped_at: new Date() }).where('id', '=', id).execute().catch(() => {});
        if (!opts.engine) await engine.close();
        wlog.info('worker stopped');
      })();
      return stopping;
    },
  };
}
