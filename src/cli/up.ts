/** `render-farm up`: API + one in-process render worker on embedded defaults, with a demo API key. */
import type { Command } from 'commander';
import type { RunningWorker } from '../jobs/worker.js';
import { configFor } from './common.js';
import { addSettingOptions } from './setting-flags.js';
import { ExitError } from './errors.js';
import { againHint, catchStopSignals, exitCodeAfter, runUntilSignal, StoppedBySignal } from './signals.js';
import type { RunningServer } from '../api/server.js';
import type { Db } from '../db/database.js';
import type { EmbeddedSupervisor } from '../db/embedded-supervisor.js';

export default function register(program: Command): void {
  const up = program
    .command('up')
    .description(
      'Start everything on embedded defaults: PostgreSQL in the data dir, the demo catalog, the API and one render worker. Prints a demo API key.',
    );
  addSettingOptions(up, ['port', 'host'])
    .option('--no-worker', 'API only: do not start the in-process render worker')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm up
  $ render-farm up --port 9000 --data-dir /var/lib/render-farm
  $ render-farm up --no-worker          # and run "render-farm worker" elsewhere`,
    )
    .action(async (opts: { worker: boolean }, cmd: Command) => {
      const cfg = configFor(cmd);
      // a taken port fails in a moment, before a cluster is initialised and seeded for nothing
      await (await import('../api/port-check.js')).assertApiPortFree(cfg);
      let db: Db | null = null;
      let pgSupervisor: EmbeddedSupervisor | null = null;
      let server: RunningServer | null = null;
      let worker: RunningWorker | null = null;
      let up = false;
      const stoppedParts = cfg.databaseUrl ? 'the API' : 'the API and the embedded PostgreSQL';
      const renders = (n: number) => `${n} render${n === 1 ? '' : 's'}`;
      // before anything starts: from here on a signal stops what has started, and a second one
      // (also during start-up) still stops it, without waiting for renders
      const signals = catchStopSignals({
        first: (s) => {
          if (!up) return `${s} during start-up: stopping what has started (${againHint(s)} to stop without waiting)`;
          const n = worker?.running() ?? 0;
          return n
            ? `${s}: stopping; waiting for ${renders(n)} (up to ${cfg.drainTimeoutSeconds} s); ${againHint(s)} to stop now`
            : `${s}: stopping`;
        },
        second: (s) => {
          const n = worker?.running() ?? 0;
          return `${s} again: stopping now${n ? `, not waiting for ${renders(n)} (released for retry)` : ''}; ${stoppedParts} still stop`;
        },
      });
      /** stops what has started, in reverse order; `now` aborted: renders are released, not awaited */
      const shutdown = async (now: AbortSignal) => {
        pgSupervisor?.stop();
        await worker?.stop({ now }).catch(() => {});
        await server?.close().catch(() => {});
        await db?.close();
      };
      try {
        const { openDatabase } = await import('../db/database.js');
        const { createLogger } = await import('../log.js');
        const { startServer } = await import('../api/server.js');
        const { demoApiKey } = await import('../auth/demo-key.js');
        const log = createLogger(cfg);
        db = await openDatabase(cfg, {
          migrate: true,
          log: (l) => log.debug({ component: 'postgres' }, l),
          notice: (l) => void process.stderr.write(`render-farm: ${l}\n`),
          poolSize: 20,
        });
        signals.throwIfStopping();
        // a killed embedded server is restarted; when it cannot be, up exits for a supervisor
        const { superviseEmbeddedPostgres } = await import('../db/embedded-supervisor.js');
        pgSupervisor = superviseEmbeddedPostgres(db.embeddedServer, log);
        let speedNote: string | null = null;
        server = await startServer(cfg, { db, log });
        signals.throwIfStopping();
        if (opts.worker) {
          const { startWorker } = await import('../jobs/worker.js');
          try {
            const started = await startWorker(cfg, db, server.ctx.store, log, {
              concurrency: cfg.workerConcurrency,
              renderTimeoutMs: cfg.renderTimeoutSeconds * 1000,
              drainTimeoutMs: cfg.drainTimeoutSeconds * 1000,
            });
            worker = started;
            // the GL self-test already ran: this is cached
            speedNote = (await started.engine.info()).note ?? null;
          } catch (err) {
            // the data API still works; renders wait in the queue for a worker
            process.stderr.write(`render-farm: the render worker did not start: ${(err as Error).message}\n`);
            const { DOCTOR_HINT } = await import('./doctor-hint.js');
            process.stderr.write(`render-farm: ${DOCTOR_HINT}\n`);
          }
          signals.throwIfStopping();
        }
        const key = await demoApiKey(db.db, cfg.dataDir);
        signals.throwIfStopping();
        const u = server.url;
        process.stdout.write(
          [
            `render-farm is up at ${u}${worker ? ' (API + 1 render worker)' : ' (API only)'}`,
            `  console:      ${u}/console/ (sign in with the demo API key)`,
            `  API docs:     ${u}/api-docs`,
            `  data dir:     ${cfg.dataDir}${db.embedded ? ' (embedded PostgreSQL)' : ''}`,
            `  demo API key: ${key}`,
            ...(speedNote ? [`  note:         ${speedNote}`] : []),
            '',
            'Try it:',
            `  TOKEN=$(curl -s -X POST ${u}/auth/render-session -H "Authorization: Bearer ${key}" -H 'Content-Type: application/json' -d '{"scopes":["data:read","render:submit","render:status"]}' | sed 's/.*"session_token":"\\([^"]*\\)".*/\\1/')`,
            `  curl -s -X POST ${u}/render-by-share-code -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"shareCode":"DEMO-GLASS","format":"sprite","width":256,"height":256,"profile":"fast"}'`,
            '',
            'Press Ctrl-C to stop.',
            '',
          ].join('\n'),
        );
        up = true;
        await runUntilSignal(signals, shutdown, { fatal: pgSupervisor?.gaveUp });
      } catch (err) {
        // once up, runUntilSignal has stopped everything (bounded when PostgreSQL is gone for good)
        if (up) throw err;
        // start-up failed or was cut short by a signal: stop what has started
        await shutdown(signals.now);
        if (!(err instanceof StoppedBySignal)) throw err;
      } finally {
        signals.dispose();
      }
      const code = exitCodeAfter(signals);
      if (code) throw new ExitError(code, 'stopped without waiting for renders');
    });
}
