/**
 * runAttempt, the one retry-or-fail of render, render-chunk and render-assemble: which
 * failures end the work, which are retried, and the reason recorded for each.
 */
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { PermanentRenderError, TakenOverError } from '../../src/jobs/errors.js';
import { leaveToHolder, runAttempt, runRenderAttempt, type Attempt } from '../../src/jobs/run-attempt.js';
import type { RenderProgress } from '../../src/render/turn.js';

/** A real pino logger writing JSON lines into `lines`, and what fail/retry recorded. */
function attempt(job: { attempts: number; max_attempts: number }, extra: Partial<Attempt> = {}) {
  const lines: { level: number; msg: string; err?: string; permanent?: boolean }[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) }),
  );
  const recorded: string[] = [];
  const shutdown = new AbortController();
  const a: Attempt = {
    helpers: { job: job as Attempt['helpers']['job'], abortSignal: shutdown.signal },
    log,
    during: 'the render',
    messages: { failed: 'render failed', retry: 'render failed, will retry' },
    fail: async (reason) => void recorded.push(`fail: ${reason}`),
    retry: async (reason) => void recorded.push(`retry: ${reason}`),
    ...extra,
  };
  return { a, lines, recorded, shutdown };
}

describe('runAttempt', () => {
  it('records nothing when the work succeeds', async () => {
    const { a, recorded, lines } = attempt({ attempts: 1, max_attempts: 3 });
    await runAttempt(a, async () => {});
    expect(recorded).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('a transient failure before the last attempt is recorded as a retry and rethrown for graphile', async () => {
    const { a, recorded, lines } = attempt({ attempts: 1, max_attempts: 3 });
    const boom = new Error('browser crashed');
    await expect(runAttempt(a, async () => Promise.reject(boom))).rejects.toBe(boom);
    expect(recorded).toEqual(['retry: browser crashed']);
    expect(lines.map((l) => [l.level, l.msg, l.err])).toEqual([[40, 'render failed, will retry', 'browser crashed']]);
  });

  it('the last attempt fails for good and returns (graphile must not retry)', async () => {
    const { a, recorded, lines } = attempt({ attempts: 3, max_attempts: 3 });
    await runAttempt(a, async () => Promise.reject(new Error('browser crashed')));
    expect(recorded).toEqual(['fail: browser crashed']);
    expect(lines.map((l) => [l.level, l.msg, l.permanent])).toEqual([[50, 'render failed', false]]);
  });

  it('a PermanentRenderError fails at once, on the first attempt', async () => {
    const { a, recorded, lines } = attempt({ attempts: 1, max_attempts: 3 });
    await runAttempt(a, async () => Promise.reject(new PermanentRenderError('unknown part')));
    expect(recorded).toEqual(['fail: unknown part']);
    expect(lines[0]).toMatchObject({ msg: 'render failed', permanent: true });
  });

  it('a time-out is named as one, with the bound in seconds', async () => {
    const bound = new AbortController();
    const { a, recorded } = attempt(
      { attempts: 1, max_attempts: 3 },
      { during: 'the chunk', timeout: { signal: bound.signal, ms: 1500 } },
    );
    bound.abort();
    await expect(runAttempt(a, async () => Promise.reject(new Error('aborted')))).rejects.toThrow('aborted');
    expect(recorded).toEqual(['retry: the chunk timed out after 2 s']);
  });

  it('a worker shutdown is named as one; without a retry record the row is left as it is', async () => {
    const { a, recorded, shutdown, lines } = attempt(
      { attempts: 1, max_attempts: 3 },
      {
        during: 'assembly',
        retry: undefined,
        messages: { failed: 'assembly failed: the render failed', retry: 'assembly failed, will retry' },
      },
    );
    shutdown.abort();
    await expect(runAttempt(a, async () => Promise.reject(new Error('aborted')))).rejects.toThrow('aborted');
    expect(recorded).toEqual([]);
    expect(lines[0]).toMatchObject({ msg: 'assembly failed, will retry', err: 'the worker shut down during assembly' });
  });
});

describe('leaveToHolder', () => {
  it('throws (graphile then leaves the queue job alone) only when another worker holds the work', () => {
    expect(() => leaveToHolder({ held: false, holder: 'w-b', status: 'processing' }, 'w-a', 'chunk 0 of r')).toThrow(
      TakenOverError,
    );
    expect(() => leaveToHolder({ held: false, holder: 'w-b', status: 'processing' }, 'w-a', 'chunk 0 of r')).toThrow(
      'chunk 0 of r was taken over by w-b',
    );
    expect(() =>
      leaveToHolder({ held: false, holder: null, status: 'superseded' }, 'w-a', 'chunk 0 of r'),
    ).not.toThrow();
    expect(() => leaveToHolder({ held: false, holder: 'w-a', status: 'queued' }, 'w-a', 'chunk 0 of r')).not.toThrow();
    expect(() => leaveToHolder(undefined, 'w-a', 'chunk 0 of r')).not.toThrow();
  });
});

describe('runRenderAttempt', () => {
  const frame = (f: number, total = 120): RenderProgress => ({ stage: 'render', frame: f, total, fps: 30 });

  it('gives the work a scratch dir it removes afterwards, also when the work fails', async () => {
    const { a } = attempt({ attempts: 1, max_attempts: 3 });
    let seen = '';
    await runRenderAttempt({ ...a, timeoutMs: 60_000, scratch: 'job', progress: async () => {} }, async ({ tmp }) => {
      seen = tmp;
      expect(existsSync(tmp)).toBe(true);
    });
    expect(seen).toMatch(/render-farm-job-/);
    expect(existsSync(seen)).toBe(false);
    await expect(
      runRenderAttempt({ ...a, timeoutMs: 60_000, scratch: 'chunk', progress: async () => {} }, async ({ tmp }) => {
        seen = tmp;
        throw new Error('browser crashed');
      }),
    ).rejects.toThrow('browser crashed');
    expect(existsSync(seen)).toBe(false);
  });

  it('writes progress at most once a second, never for an empty total, and ignores a failed write', async () => {
    const { a } = attempt({ attempts: 1, max_attempts: 3 });
    const writes: number[] = [];
    await runRenderAttempt(
      {
        ...a,
        timeoutMs: 60_000,
        scratch: 'job',
        progress: async (p) => (writes.push(p.frame), Promise.reject(new Error('database down'))),
      },
      async ({ onProgress }) => {
        onProgress(frame(0, 0));
        for (let f = 1; f <= 5; f++) onProgress(frame(f));
      },
    );
    expect(writes).toEqual([1]);
  });

  it('aborts the work at its time bound and names the time-out', async () => {
    const { a, recorded } = attempt({ attempts: 3, max_attempts: 3 });
    await runRenderAttempt(
      { ...a, timeoutMs: 1_000, scratch: 'job', progress: async () => {} },
      ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    expect(recorded).toEqual(['fail: the render timed out after 1 s']);
  });
});
