/**
 * Keeps an embedded PostgreSQL that this process started running: when its server process
 * exits unasked (kill -9, the OOM killer, a crash) it is started again on the same data
 * (PostgreSQL recovers from its WAL and ignores the dead server's postmaster.pid), with one
 * log line per restart. The pool, the API and the worker reconnect by themselves once it is
 * back. When the restart policy runs out, `gaveUp` resolves with the one line to exit on, so
 * that a process supervisor takes over rather than the service staying degraded for good.
 */
import { UnavailableError } from '../errors.js';
import type { EmbeddedPostgresHandle, ServerExit } from './embedded.js';
import { EMBEDDED_PG_RESTARTS, nextRestart, type RestartPolicy } from './restart-policy.js';

export interface SupervisorLog {
  warn(msg: string): void;
  info(msg: string): void;
}

export interface EmbeddedSupervisor {
  /** resolves (never rejects) when the server could not be brought back: exit with this error */
  gaveUp: Promise<UnavailableError>;
  /** no more restarts (shutting down) */
  stop(): void;
}

function describeExit(exit: ServerExit): string {
  return exit.signal ? `exited (signal ${exit.signal})` : `exited (code ${exit.code})`;
}

/** Supervises `server` when this process started it; null for none or one it only joined (its owner supervises it). */
export function superviseEmbeddedPostgres(
  server: EmbeddedPostgresHandle | null,
  log: SupervisorLog,
  policy: RestartPolicy = EMBEDDED_PG_RESTARTS,
): EmbeddedSupervisor | null {
  if (!server?.onUnexpectedExit || !server.restart) return null;
  const restart = server.restart;
  const attemptsAt: number[] = [];
  let stopped = false;
  let recovering = false;
  let giveUp!: (err: UnavailableError) => void;
  const gaveUp = new Promise<UnavailableError>((r) => (giveUp = r));
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const recover = async (reason: string) => {
    recovering = true;
    try {
      for (;;) {
        const next = nextRestart(attemptsAt, Date.now(), policy);
        if (!next.restart) {
          giveUp(
            new UnavailableError(
              'database_unavailable',
              `embedded PostgreSQL could not be restarted (${next.attempts} attempts within ${policy.windowMs / 1000} s; last: ${reason}): exiting so that a supervisor can take over (the data dir is intact; see the log with LOG_LEVEL=debug)`,
            ),
          );
          return;
        }
        // the one line per restart
        log.warn(`embedded PostgreSQL ${reason}; restarting (attempt ${next.attempt}/${policy.maxAttempts})`);
        attemptsAt.push(Date.now());
        await sleep(next.delayMs);
        if (stopped) return;
        try {
          await restart();
          log.info('embedded PostgreSQL is back');
          return;
        } catch (err) {
          if (stopped) return;
          reason = `did not start (${(err as Error).message})`;
        }
      }
    } finally {
      recovering = false;
    }
  };

  server.onUnexpectedExit((exit) => {
    // an exit while recovering is a failed start, which recover() sees itself
    if (!stopped && !recovering) void recover(describeExit(exit));
  });
  return {
    gaveUp,
    stop: () => {
      stopped = true;
    },
  };
}
