import { describe, expect, it } from 'vitest';
import { EMBEDDED_PG_RESTARTS, nextRestart, type RestartPolicy } from '../../src/db/restart-policy.js';

const policy: RestartPolicy = { maxAttempts: 3, windowMs: 60_000, baseDelayMs: 500 };

describe('restart policy', () => {
  it('restarts at once-ish, then with doubling delays', () => {
    expect(nextRestart([], 1_000_000, policy)).toEqual({ restart: true, attempt: 1, delayMs: 500 });
    expect(nextRestart([1_000_000], 1_001_000, policy)).toEqual({ restart: true, attempt: 2, delayMs: 1_000 });
    expect(nextRestart([1_000_000, 1_002_000], 1_004_000, policy)).toEqual({
      restart: true,
      attempt: 3,
      delayMs: 2_000,
    });
  });

  it('gives up after 3 attempts within the window', () => {
    expect(nextRestart([1_000_000, 1_002_000, 1_005_000], 1_010_000, policy)).toEqual({ restart: false, attempts: 3 });
    // a server that crashes right after each successful restart counts the same
    expect(nextRestart([0, 20_000, 40_000], 59_999, policy)).toEqual({ restart: false, attempts: 3 });
  });

  it('forgets attempts older than the window: a server that dies now and then is always restarted', () => {
    expect(nextRestart([0, 20_000, 40_000], 60_000, policy)).toEqual({ restart: true, attempt: 3, delayMs: 2_000 });
    expect(nextRestart([0, 1_000, 2_000], 3_600_000, policy)).toEqual({ restart: true, attempt: 1, delayMs: 500 });
  });

  it('the embedded PostgreSQL policy is 3 restarts in a minute', () => {
    expect(EMBEDDED_PG_RESTARTS).toMatchObject({ maxAttempts: 3, windowMs: 60_000 });
    // the whole series stays well inside the window, so the limit really is reached
    const total = [0, 1, 2].reduce((s, n) => s + EMBEDDED_PG_RESTARTS.baseDelayMs * 2 ** n, 0);
    expect(total).toBeLessThan(10_000);
  });
});
