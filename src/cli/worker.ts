/** `render-farm worker`: joins the render farm on the shared PostgreSQL. */
import type { Command } from 'commander';
import { configFor, subcommand } from './common.js';
import { ExitError } from './errors.js';
import { addSettingOptions } from './setting-flags.js';
import { againHint, catchStopSignals, exitCodeAfter, runUntilSignal, StoppedBySignal } from './signals.js';
import type { RunningWorker } from '../jobs/worker.js';

export default function register(program: Command): void {
  const worker = subcommand(program, 'worker', {
    description:
      'Render jobs from the queue (graphile-worker on PostgreSQL) with a warm headless Chromium. SIGTERM drains, and so does `workers drain <id>`.',
    examples: [
      'DATABASE_URL=postgres://u:p@db/render render-farm worker --concurrency 1',
      'render-farm worker                      # joins the embedded database of a local "render-farm up"',
    ],
  });
  addSettingOptions(worker, ['workerConcurrency', 'renderTimeoutSeconds', 'drainTimeoutSeconds']).action(
    async (_opts, cmd: Command) => {
      const cfg = configFor(cmd);
      const { createLogger } = await import('../log.js');
      const { openArtifactStore } = await import('../storage/open-artifact-store.js');
      const { startWorker } = await import('../jobs/worker.js');
      const log = createLogger(cfg);
      const { DOCTOR_HINT, isMissingComponent } = await import('./doctor-hint.js');
      const withHint = (err: unknown) =>
        isMissingComponent(err) ? new ExitError(1, `${(err as Error).message}\nrender-farm: ${DOCTOR_HINT}`) : err;
      const { openDatabaseWithBackoff } = await import('../db/open-with-backoff.js');
      const { workerPoolSize } = await import('../db/connection-budget.js');
      // before anything starts: a signal ends the wait for PostgreSQL, stops what has started,
      // and during a drain a second one releases the running renders at once
      let worker: RunningWorker | null = null;
      const signals = catchStopSignals({
        first: (s) => {
          const n = worker?.running() ?? 0;
          return n
            ? `${s}: draining; waiting for ${n} render${n === 1 ? '' : 's'} (up to ${cfg.drainTimeoutSeconds} s); ${againHint(s)} to stop now`
            : `${s} received, shutting down`;
        },
        second: (s) =>
          `${s} again: stopping now${worker?.running() ? ' (running renders are released for retry)' : ''}`,
      });
      try {
        const db = await openDatabaseWithBackoff(
          cfg,
          {
            migrate: true,
            log: (l) => log.debug({ component: 'postgres' }, l),
            // one pool per process, sized from its concurrency (db/connection-budget.ts)
            poolSize: workerPoolSize(cfg.workerConcurrency, cfg.workerDbPool),
            applicationName: `render-farm worker ${process.pid}`,
          },
          // a full or unreachable PostgreSQL at start is waited out, one line per attempt, not a crash loop
          {
            signal: signals.stop,
            onWait: (line, info) =>
              log.warn({ attempt: info.attempt, retryInMs: info.retryInMs }, `worker waiting for PostgreSQL: ${line}`),
          },
        ).catch((err) => {
          throw withHint(err);
        });
        try {
          signals.throwIfStopping();
          const store = await openArtifactStore(cfg);
          worker = await startWorker(cfg, db, store, log, {
            concurrency: cfg.workerConcurrency,
            renderTimeoutMs: cfg.renderTimeoutSeconds * 1000,
            drainTimeoutMs: cfg.drainTimeoutSeconds * 1000,
          }).catch((err) => {
            throw withHint(err);
          });
          const running = worker;
          try {
            signals.throwIfStopping();
            process.stderr.write(
              `render-farm: worker ${running.id} is taking jobs (concurrency ${cfg.workerConcurrency})\n`,
            );
          } catch (err) {
            await running.stop({ now: signals.now });
            throw err;
          }
          await runUntilSignal(signals, (now) => running.stop({ now }), {
            ended: { done: running.done, why: `worker ${running.id} drained on request (workers drain)` },
          });
        } finally {
          await db.close();
        }
      } catch (err) {
        if (!(err instanceof StoppedBySignal)) throw err;
      } finally {
        signals.dispose();
      }
      const code = exitCodeAfter(signals);
      if (code) throw new ExitError(code, 'stopped without waiting for renders');
    },
  );
}
