/** Which errors mean "PostgreSQL is unreachable", and retrying only those. */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isConnectionError } from '../../src/db/connection-errors.js';
import { freePort } from '../../src/db/free-port.js';
import { untilReachable } from '../../src/db/until-reachable.js';

describe('isConnectionError', () => {
  it('is true for a real refused connection and false for a bad query', async () => {
    const refused = await new pg.Client({ connectionString: `postgres://x:y@127.0.0.1:${await freePort()}/z` })
      .connect()
      .catch((e: unknown) => e);
    expect(isConnectionError(refused)).toBe(true);
    expect(
      isConnectionError(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe(true);
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' }))).toBe(
      false,
    );
    expect(isConnectionError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});

describe('untilReachable', () => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  it('retries while the database is unreachable, reporting the wait once', async () => {
    let calls = 0;
    const waits: string[] = [];
    const v = await untilReachable(
      async () => {
        if (++calls < 4) throw refused();
        return 'recorded';
      },
      { minDelayMs: 1, maxDelayMs: 4, onWait: (e) => waits.push(e.message) },
    );
    expect(v).toBe('recorded');
    expect(calls).toBe(4);
    expect(waits).toEqual(['connect ECONNREFUSED 127.0.0.1:5432']);
  });

  it('throws other errors at once', async () => {
    let calls = 0;
    const err = Object.assign(new Error('violates check constraint'), { code: '23514' });
    await expect(untilReachable(async () => (calls++, Promise.reject(err)), { minDelayMs: 1 })).rejects.toBe(err);
    expect(calls).toBe(1);
  });

  it('gives up with the last error when its signal aborts', async () => {
    const ctl = new AbortController();
    let calls = 0;
    const p = untilReachable(
      async () => {
        if (++calls === 3) ctl.abort();
        throw refused();
      },
      { signal: ctl.signal, minDelayMs: 1 },
    );
    await expect(p).rejects.toThrow('ECONNREFUSED');
    expect(calls).toBe(3);
  });
});
