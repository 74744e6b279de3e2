/**
 * A worker started against a PostgreSQL at max_connections (a dedicated embedded server with
 * a low limit, filled by clients held here) does not crash-loop: it says why it waits (53300
 * too many clients), once per attempt with a growing delay, and joins the farm once slots free.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../src/db/embedded.js';
import { freePort } from '../../src/db/free-port.js';
import { migrate } from '../../src/db/migrate.js';
import { spawnWorker, type WorkerChild } from '../helpers/worker-process.js';

const MAX_CONNECTIONS = 8;

let dir: string;
let server: EmbeddedPostgresHandle;
let url: string;
const held: pg.Client[] = [];
let worker: WorkerChild | null = null;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-test-maxconn-'));
  await fs.chmod(dir, 0o755);
  server = await startEmbeddedPostgres(dir, await freePort(), () => {}, { maxConnections: MAX_CONNECTIONS });
  url = server.connectionString('postgres');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await migrate(pool);
  await pool.end();
}, 120_000);

afterAll(async () => {
  if (worker && worker.proc.exitCode === null) {
    worker.proc.kill('SIGKILL');
    await worker.exited;
  }
  await Promise.all(held.map((c) => c.end().catch(() => {})));
  await server?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

/** Opens clients until PostgreSQL refuses one with 53300; keeps them. */
async function fill(): Promise<string> {
  for (let i = 0; i < MAX_CONNECTIONS + 5; i++) {
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      held.push(c);
    } catch (err) {
      return String((err as { code?: string }).code);
    }
  }
  return 'never refused';
}

describe('a worker at max_connections', () => {
  it('waits with backoff, saying why, and joins when slots are freed', async () => {
    expect(await fill()).toBe('53300');
    expect(held.length).toBeGreaterThan(0);
    const data = await fs.mkdtemp(path.join(dir, 'data-'));
    // the fake stage: no Chromium needed to join
    worker = await spawnWorker(url, data, [], { RENDER_FARM_FAKE_STAGE_MS: '5', LOG_FORMAT: 'json' }, { ready: false });
    await worker.waitForOutput('attempt 2,', 30_000);
    const lines = worker
      .output()
      .split('\n')
      .filter((l) => l.includes('worker waiting for PostgreSQL'));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toContain('53300 too many clients');
    // one line per attempt, and the delay grows
    const delays = lines.map((l) => (JSON.parse(l) as { retryInMs: number }).retryInMs);
    expect(delays[1]!).toBeGreaterThan(delays[0]!);
    expect(worker.proc.exitCode).toBeNull();

    await Promise.all(held.splice(0).map((c) => c.end()));
    await worker.waitForOutput('is taking jobs', 60_000);
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    const { rows } = await check.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM workers WHERE pid = $1 AND stopped_at IS NULL`,
      [worker.pid],
    );
    const apps = await check.query<{ app: string }>(
      `SELECT DISTINCT application_name AS app FROM pg_stat_activity WHERE application_name LIKE 'render-farm worker%'`,
    );
    await check.end();
    expect(rows[0]!.n).toBe(1);
    expect(apps.rows.map((r) => r.app)).toContain(`render-farm worker ${worker.pid}`);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 150_000);
});
