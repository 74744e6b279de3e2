/**
 * Starting graphile-worker: its schema, and a runner of some of the task map's handlers. Every
 * runner of the process (the render worker, jobs/worker.ts; webhook deliveries,
 * webhooks/delivery-runner.ts) starts here, so each gets the same logger adapter and the same
 * payload checks, and none handles signals (the CLI owns them).
 */
import type pg from 'pg';
import type { RunnerOptions as GraphileRunnerOptions, Runner } from 'graphile-worker';
import type { Logger } from '../../log.js';
import { quietLogger } from './graphile-logger.js';
import { toTaskList, type TaskHandlers } from './task-map.js';

/** Installs or upgrades graphile-worker's schema (idempotent; safe from many processes). */
export async function installQueue(pool: pg.Pool): Promise<void> {
  const gw = await import('graphile-worker');
  await gw.runMigrations({ pgPool: pool, logger: quietLogger(gw.Logger) });
}

export interface StartRunnerOptions
  extends Pick<
    GraphileRunnerOptions,
    'concurrency' | 'pollInterval' | 'gracefulShutdownAbortTimeout' | 'events' | 'preset' | 'crontab'
  > {
  pool: pg.Pool;
  /** the tasks this runner takes (a runner never takes a task it has no handler for) */
  handlers: TaskHandlers;
  /** graphile's warnings and errors (a failed task, with its stack) go here */
  log: Logger;
  /** graphile log messages to drop besides the usual (quietLogger) */
  skipLog?: (message: string) => boolean;
}

/** Starts a graphile runner of `handlers`. */
export async function startRunner({ pool, handlers, log, skipLog, ...opts }: StartRunnerOptions): Promise<Runner> {
  const gw = await import('graphile-worker');
  return gw.run({
    ...opts,
    pgPool: pool,
    noHandleSignals: true,
    logger: quietLogger(gw.Logger, { log, skip: skipLog }),
    taskList: toTaskList(handlers),
  });
}

/** Frees the jobs these graphile worker ids hold, through graphile's own utilities (a last resort when a runner would not stop). */
export async function forceUnlockWithUtils(pool: pg.Pool, graphileIds: string[], log?: Logger): Promise<void> {
  const gw = await import('graphile-worker');
  const u = await gw.makeWorkerUtils({ pgPool: pool, logger: quietLogger(gw.Logger, { log }) });
  await u.forceUnlockWorkers(graphileIds);
  await u.release();
}
