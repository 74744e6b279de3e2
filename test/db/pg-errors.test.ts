import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/free-port.js';
import { isDatabaseUnavailableError, isUnstorableTextError } from '../../src/db/pg-errors.js';
import { createTestDb } from '../helpers/db.js';

describe('PostgreSQL error classification', () => {
  it('a refused connection (real pg client, nothing listening) is "unavailable"', async () => {
    const port = await freePort();
    const client = new pg.Client({ connectionString: `postgres://x:y@localhost:${port}/db` });
    const err = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(isDatabaseUnavailableError(err)).toBe(true);
    const pool = new pg.Pool({ connectionString: `postgres://x:y@127.0.0.1:${port}/db` });
    expect(isDatabaseUnavailableError(await pool.query('SELECT 1').catch((e: unknown) => e))).toBe(true);
    await pool.end();
  });

  it('a query that fails on a live server is not "unavailable"', async () => {
    const t = await createTestDb();
    try {
      for (const q of ['SELEC 1', 'SELECT * FROM no_such_table', 'SELECT 1/0']) {
        const err = await t.db.pool.query(q).catch((e: unknown) => e);
        expect(isDatabaseUnavailableError(err), q).toBe(false);
        expect(isUnstorableTextError(err), q).toBe(false);
      }
    } finally {
      await t.close();
    }
  });

  it('recognises server shutdown codes and driver messages', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300'])
      expect(isDatabaseUnavailableError(Object.assign(new Error('x'), { code })), code).toBe(true);
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
    ]) {
      expect(isDatabaseUnavailableError(new Error(message)), message).toBe(true);
    }
    expect(
      isDatabaseUnavailableError(new AggregateError([Object.assign(new Error(''), { code: 'ECONNREFUSED' })])),
    ).toBe(true);
    expect(isDatabaseUnavailableError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailableError(null)).toBe(false);
  });
});
