/**
 * Retries a database operation while PostgreSQL is unreachable, with capped exponential
 * backoff, so that work already done (a finished render) is recorded once the database is
 * back instead of being lost. Other errors are thrown at once.
 */
import { isConnectionError } from './connection-errors.js';

export interface UntilReachableOptions {
  /** stop waiting (and throw the last error) when this aborts, e.g. a worker's hard stop */
  signal?: AbortSignal;
  /** called when the first attempt fails and then about once a minute while it keeps failing */
  onWait?: (err: Error, waitedMs: number) => void;
  /** first delay; doubles up to maxDelayMs */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export async function untilReachable<T>(op: () => Promise<T>, opts: UntilReachableOptions = {}): Promise<T> {
  const { signal, onWait, minDelayMs = 250, maxDelayMs = 5_000 } = opts;
  const started = Date.now();
  let delay = minDelayMs;
  let reportedAt = 0;
  for (;;) {
    try {
      return await op();
    } catch (err) {
      if (!isConnectionError(err) || signal?.aborted) throw err;
      const waited = Date.now() - started;
      if (reportedAt === 0 || Date.now() - reportedAt >= 60_000) {
        reportedAt = Date.now();
        onWait?.(err as Error, waited);
      }
      await sleep(delay, signal);
      delay = Math.min(maxDelayMs, delay * 2);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
