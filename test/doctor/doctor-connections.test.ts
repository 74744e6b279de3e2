/**
 * Doctor's connection budget: the postgres check warns, with the formula, when max_connections
 * is below what RENDER_FARM_EXPECTED_WORKERS need, and stays OK when it fits.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { checkDatabase } from '../../src/doctor/database-check.js';
import { connectionFinding } from '../../src/doctor/connections-check.js';
import { useTestDb } from '../helpers/db.js';

const t = useTestDb();
const config = (env: Record<string, string>) => loadConfig({ databaseUrl: t.url, dataDir: t.cfg.dataDir }, env);

describe('doctor: max_connections against the connection budget', () => {
  it('warns when the expected workers need more than max_connections', async () => {
    const r = await checkDatabase(config({ RENDER_FARM_EXPECTED_WORKERS: '100', RENDER_FARM_WORKER_CONCURRENCY: '4' }));
    expect(r.status).toBe('warn');
    // 100 x (4 + 2) + 1 x 11 + 5 = 616
    expect(r.detail).toContain('100 worker process(es) x (concurrency 4 + 2) + 1 serve(s) x 11 + 5 spare = 616');
    expect(r.fix).toMatch(/raise max_connections to at least 6\d\d/);
  });

  it('is OK when they fit', async () => {
    const r = await checkDatabase(config({ RENDER_FARM_EXPECTED_WORKERS: '4', RENDER_FARM_WORKER_CONCURRENCY: '2' }));
    expect(r.status).toBe('ok');
    expect(r.data).toMatchObject({ connections: { perWorker: 4 } });
  });

  it('without an expected count, compares the free slots with one worker process', () => {
    const cfg = { workerConcurrency: 4, expectedWorkers: 0, workerDbPool: 0 };
    expect(connectionFinding(cfg, { maxConnections: 100, reserved: 3, inUse: 50 })).toBeNull();
    const short = connectionFinding(cfg, { maxConnections: 100, reserved: 3, inUse: 93 });
    expect(short?.detail).toBe(
      '4 connection(s) free of max_connections 100 (93 in use, 3 reserved): one worker process needs concurrency 4 + 2 = 6',
    );
    // a configured pool (RENDER_FARM_WORKER_DB_POOL) is what a worker needs then
    expect(connectionFinding({ ...cfg, workerDbPool: 3 }, { maxConnections: 100, reserved: 3, inUse: 93 })).toBeNull();
  });
});
