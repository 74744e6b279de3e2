/**
 * Opening the database for a long-running process that must not crash-loop at start: when
 * PostgreSQL refuses (53300 "too many clients": max_connections is reached, typically when many
 * worker pods start at once) or cannot be reached, wait with capped, jittered exponential
 * backoff and say why in one line per attempt; any other error (bad password, bad URL) is
 * thrown at once. Success means the process got the connections it needs to start (`reserve`),
 * not just one: a worker needs graphile-worker's LISTEN plus one for queries.
 */
import type { Config } from '../config.js';
import { openDatabase, type Db, type OpenOptions } from './database.js';
import { isDatabaseUnavailableError } from './pg-errors.js';

export interface BackoffOptions {
  /** one line per failed attempt: why, which attempt, and when the next one is */
  onWait: (line: string, info: { attempt: number; retryInMs: number; tooManyClients: boolean }) => void;
  /** stop waiting (throw the last error) when this aborts, e.g. SIGTERM during start */
  signal?: AbortSignal;
  /** connections held at once to count as started (default 2) */
  reserve?: number;
  /** first delay, doubled per attempt up to maxDelayMs (defaults 1 s and 30 s) */
  minDelayMs?: number;
  maxDelayMs?: number;
}

/** SQLSTATE 53300 (too_many_connections) anywhere in the error chain. */
export function isTooManyClients(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === '53300') return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Why an attempt failed, in a few words. */
function reason(err: unknown): string {
  if (isTooManyClients(err))
    return 'PostgreSQL has no free connection (53300 too many clients: max_connections is reached; see "render-farm doctor")';
  let e = err as { message?: unknown; cause?: unknown };
  while (e.cause && typeof e.cause === 'object') e = e.cause as typeof e;
  return `PostgreSQL cannot be reached (${String(e.message ?? err)})`;
}

/** Holds `n` connections of the pool at once, then gives them back. */
async function reserve(db: Db, n: number): Promise<void> {
  const clients = await Promise.allSettled(Array.from({ length: n }, () => db.pool.connect()));
  for (const c of clients) if (c.status === 'fulfilled') c.value.release();
  const failed = clients.find((c) => c.status === 'rejected');
  if (failed) throw failed.reason;
}

/** openDatabase, waiting out a full or unreachable PostgreSQL (see the file comment). */
export async function openDatabaseWithBackoff(cfg: Config, opts: OpenOptions, backoff: BackoffOptions): Promise<Db> {
  const { signal, reserve: need = 2, minDelayMs = 1_000, maxDelayMs = 30_000 } = backoff;
  let delay = minDelayMs;
  for (let attempt = 1; ; attempt++) {
    let db: Db | null = null;
    try {
      db = await openDatabase(cfg, opts);
      await reserve(db, need);
      return db;
    } catch (err) {
      await db?.close().catch(() => {});
      if (!isDatabaseUnavailableError(err) || signal?.aborted) throw err;
      // jitter: workers refused together must not all come back in the same instant
      const wait = Math.round(delay * (0.75 + Math.random() * 0.5));
      backoff.onWait(`${reason(err)}: attempt ${attempt}, trying again in ${(wait / 1000).toFixed(1)} s`, {
        attempt,
        retryInMs: wait,
        tooManyClients: isTooManyClients(err),
      });
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, wait);
        function done() {
          clearTimeout(t);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      });
      if (signal?.aborted) throw err;
      delay = Math.min(maxDelayMs, delay * 2);
    }
  }
}
