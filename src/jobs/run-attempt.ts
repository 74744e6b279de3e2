/**
 * Retry-or-fail for one attempt of a render-farm task (render, render-chunk, render-assemble):
 * a PermanentRenderError (bad data) or the job's last attempt fails the work for good and
 * returns, so graphile completes the job instead of retrying it; any other error is recorded
 * as a retry and rethrown, so graphile retries with backoff. The reason recorded names a
 * time-out or a worker shutdown rather than the abort error they cause. When the write that
 * records a failure finds the work taken over by another worker (fencing: claim-fence.ts),
 * the attempt neither retries nor fails anything: it tells `dropped` (one log line) and
 * returns, so a worker taken for dead cannot undo, or fail, work it no longer holds (a stale
 * holder's last attempt included). When the work is another worker's now, the task ends with
 * leaveToHolder's TakenOverError, so graphile does not delete the queue job the holder runs.
 * runRenderAttempt adds
 * what the pixel-rendering tasks share: the time bound, a scratch dir and throttled progress.
 */
import fs from 'node:fs/promises';
import type { JobHelpers } from 'graphile-worker';
import { SpriteEncodeError } from '../encode/sprite-sheet.js';
import type { Logger } from '../log.js';
import type { RenderProgress } from '../render/turn.js';
import { makeTempDir } from '../temp-dirs.js';
import { PermanentRenderError, TakenOverError } from './errors.js';
import { untilReachable } from '../db/until-reachable.js';
import { staleReason, type Stale } from './claim-fence.js';

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
  /** records the final failure (graphile will not retry); a Stale: the work is no longer this worker's, nothing was recorded */
  fail(reason: string): Promise<Stale | void>;
  /** records a failure graphile will retry; without it nothing is recorded (the row stays as it is); a Stale as for fail */
  retry?(reason: string): Promise<Stale | void>;
  /** a failure found the work held by another worker: log it (one line); the attempt then ends without a retry */
  dropped?(stale: Stale, reason: string): void;
}

/**
 * Throws TakenOverError when `stale` names another worker as the holder (its queue job must be
 * left alone: see TakenOverError); returns otherwise (nobody holds it, or the work moved on).
 */
export function leaveToHolder(stale: Stale | undefined, me: string, what: string): void {
  if (stale && stale.holder !== null && stale.holder !== me)
    throw new TakenOverError(`${what} was taken over by ${stale.holder}; its queue job is left to it`);
}

/**
 * The bookkeeping of a fenced task (render, render-chunk) about `what` ("render <id>"): `record`
 * retries a write that must not be lost to a database outage until PostgreSQL answers; `dropped`
 * logs a result dropped because the work is another worker's now (one line), and `leave` then
 * ends the task as leaveToHolder does. `log` is read at each line: the task's log gains fields as it runs.
 */
export function fencedWork(
  helpers: Pick<JobHelpers, 'abortSignal'>,
  log: () => Logger,
  what: string,
  kept: string,
  me: string,
) {
  let lost: Stale | undefined;
  return {
    record: <T>(op: () => Promise<T>) =>
      untilReachable(op, {
        signal: helpers.abortSignal,
        onWait: (err, waitedMs) =>
          log().warn(
            { err: err.message, waitedS: Math.round(waitedMs / 1000) },
            `database unavailable: keeping the ${kept} and retrying its bookkeeping`,
          ),
      }),
    dropped: (s: Stale, err?: string) => {
      lost = s;
      log().warn(
        { holder: s.holder, status: s.status, ...(err ? { err } : {}) },
        `${what} ${staleReason(s, me)}; dropping my result`,
      );
    },
    leave: () => leaveToHolder(lost, me, what),
  };
}

/** Runs `work` as one attempt (see the file comment); resolves when the job is done with, rejects to have graphile retry it. */
export async function runAttempt(a: Attempt, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    // a sheet libwebp refused at every step is refused again on a retry: the same pixels
    const permanent = err instanceof PermanentRenderError || err instanceof SpriteEncodeError;
    if (err instanceof SpriteEncodeError) a.log.warn({ steps: err.steps }, 'sprite sheet encode failed at every step');
    const lastAttempt = a.helpers.job.attempts >= a.helpers.job.max_attempts;
    const reason = a.timeout?.signal.aborted
      ? `${a.during} timed out after ${Math.round(a.timeout.ms / 1000)} s`
      : a.helpers.abortSignal?.aborted
        ? `the worker shut down during ${a.during}`
        : (err as Error).message;
    if (permanent || lastAttempt) {
      const stale = await a.fail(reason);
      if (stale) return a.dropped?.(stale, reason);
      a.log.error({ err: reason, permanent }, a.messages.failed);
      return; // final: do not let graphile retry
    }
    const stale = await a.retry?.(reason);
    // another worker holds it: retrying here would render it twice
    if (stale) return a.dropped?.(stale, reason);
    a.log.warn({ err: reason }, a.messages.retry);
    throw err;
  }
}

/** progress is written at most this often (each write is a row update that NOTIFYs listeners) */
const PROGRESS_EVERY_MS = 1_000;

export interface RenderAttempt extends Omit<Attempt, 'timeout'> {
  /** the attempt's time bound */
  timeoutMs: number;
  /** the scratch dir's kind (temp-dirs.ts) */
  scratch: string;
  /** writes progress; called at most once a second, failures ignored (the next write catches up) */
  progress(p: RenderProgress): Promise<unknown>;
}

/** What a pixel-rendering attempt works with. */
export interface RenderAttemptTools {
  /** scratch dir, removed when the attempt ends */
  tmp: string;
  /** aborts on the time bound or a worker shutdown */
  signal: AbortSignal;
  /** the engine's onProgress, throttled */
  onProgress(p: RenderProgress): void;
}

/** A progress write's Stale for a row that ended in error while this worker rendered it (a cancel). */
function endedMeanwhile(r: unknown): boolean {
  return typeof r === 'object' && r !== null && (r as Partial<Stale>).held === false && (r as Stale).status === 'error';
}

/** runAttempt for the tasks that render pixels (render, render-chunk): a time bound, a scratch dir and throttled progress around the work. */
export async function runRenderAttempt(
  a: RenderAttempt,
  work: (t: RenderAttemptTools) => Promise<void>,
): Promise<void> {
  const tmp = await makeTempDir(a.scratch);
  const timeout = AbortSignal.timeout(a.timeoutMs);
  // a progress write that finds the row ended in error (cancelled: jobs cancel) stops the work;
  // its fail/retry write then finds the row ended too and records nothing (Stale)
  const ended = new AbortController();
  const signal = AbortSignal.any([timeout, a.helpers.abortSignal, ended.signal]);
  let lastWrite = 0;
  const onProgress = (p: RenderProgress) => {
    const now = Date.now();
    if (now - lastWrite < PROGRESS_EVERY_MS || p.total === 0) return;
    lastWrite = now;
    void a.progress(p).then(
      (r) => {
        if (endedMeanwhile(r)) ended.abort(new Error(`${a.during} was stopped: it was cancelled meanwhile`));
      },
      () => {},
    );
  };
  try {
    await runAttempt({ ...a, timeout: { signal: timeout, ms: a.timeoutMs } }, () => work({ tmp, signal, onProgress }));
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}
