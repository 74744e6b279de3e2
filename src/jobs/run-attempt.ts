/**
 * Retry-or-fail for one attempt of a render-farm task (render, render-chunk, render-assemble):
 * a PermanentRenderError (bad data) or the job's last attempt fails the work for good and
 * returns, so graphile completes the job instead of retrying it; any other error is recorded
 * as a retry and rethrown, so graphile retries with backoff. The reason recorded names a
 * time-out or a worker shutdown rather than the abort error they cause.
 */
import type { JobHelpers } from 'graphile-worker';
import type { Logger } from '../log.js';
import { PermanentRenderError } from './errors.js';

export interface Attempt {
  /** the queue job's attempt counters and the runner's shutdown signal */
  helpers: Pick<JobHelpers, 'job' | 'abortSignal'>;
  log: Logger;
  /** the work as reasons name it: "the render" (the worker shut down during the render; the render timed out after N s) */
  during: string;
  /** the attempt's time bound, when it has one */
  timeout?: { signal: AbortSignal; ms: number };
  /** log lines for a final failure and for one that will be retried */
  messages: { failed: string; retry: string };
  /** records the final failure (graphile will not retry) */
  fail(reason: string): Promise<void>;
  /** records a failure graphile will retry; without it nothing is recorded (the row stays as it is) */
  retry?(reason: string): Promise<void>;
}

/** Runs `work` as one attempt (see the file comment); resolves when the job is done with, rejects to have graphile retry it. */
export async function runAttempt(a: Attempt, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    const permanent = err instanceof PermanentRenderError;
    const lastAttempt = a.helpers.job.attempts >= a.helpers.job.max_attempts;
    const reason = a.timeout?.signal.aborted
      ? `${a.during} timed out after ${Math.round(a.timeout.ms / 1000)} s`
      : a.helpers.abortSignal?.aborted
        ? `the worker shut down during ${a.during}`
        : (err as Error).message;
    if (permanent || lastAttempt) {
      await a.fail(reason);
      a.log.error({ err: reason, permanent }, a.messages.failed);
      return; // final: do not let graphile retry
    }
    await a.retry?.(reason);
    a.log.warn({ err: reason }, a.messages.retry);
    throw err;
  }
}
