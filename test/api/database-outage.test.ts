/**
 * The database going away (a real PostgreSQL stopped, then started again): every call answers
 * 503 database_unavailable with Retry-After, the outage is logged once per state change, and
 * the service recovers by itself.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { loadConfig } from '../../src/config.js';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../src/db/embedded.js';
import { freePort } from '../../src/db/free-port.js';
import { migrate } from '../../src/db/migrate.js';
import { isErrorBody } from '../helpers/api.js';
import { captureLogger } from '../helpers/log-capture.js';
import { waitFor } from '../helpers/wait-for.js';

describe('database outage', () => {
  let dir: string;
  let pgPort: number;
  let handle: EmbeddedPostgresHandle;
  let server: RunningServer;
  let key: string;
  let token: string;
  const captured = captureLogger('info');

  const call = async (method: string, p: string, credential?: string, body?: unknown) => {
    const res = await fetch(server.url + p, {
      method,
      headers: {
        ...(credential ? { authorization: `Bearer ${credential}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: JSON.parse(text) };
  };

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-test-outage-'));
    await fs.chmod(dir, 0o755);
    pgPort = await freePort();
    handle = await startEmbeddedPostgres(dir, pgPort);
    const url = handle.connectionString('postgres');
    const pool = new pg.Pool({ connectionString: url });
    await migrate(pool);
    await pool.end();
    const cfg = loadConfig(
      { databaseUrl: url, dataDir: path.join(dir, 'data'), port: 0, signingSecret: 'outage-secret-'.padEnd(40, 'x') },
      {},
    );
    server = await startServer(cfg, { log: captured.log });
    key = (await createApiKey(server.ctx.db.db, 'acme', 'prod')).key;
    const minted = await call('POST', '/auth/render-session', key, { scopes: ['data:read', 'render:status'] });
    token = minted.json.session_token;
  });

  afterAll(async () => {
    await server?.close();
    await handle?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while PostgreSQL is stopped, logs it once, and recovers', async () => {
    expect((await call('GET', '/available-parts?category=GPU', token)).status).toBe(200);
    expect((await call('GET', '/available-parts?category=GPU', key)).status).toBe(200);

    await handle.stop();
    const down = [
      await call('GET', '/available-parts?category=GPU', key),
      await call('GET', '/available-parts?category=GPU', token),
      await call('GET', '/build/DEMO-GLASS', token),
      await call('POST', '/auth/render-session', key, {}),
      await call('GET', '/render-build/3fa85f64-5717-4562-b3fc-2c963f66afa6', token),
    ];
    for (const r of down) {
      expect(r.status, r.text).toBe(503);
      expect(isErrorBody(r.json)).toBe(true);
      expect(r.json.error).toBe('database_unavailable');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.text).not.toMatch(/ECONNREFUSED|at .*\.js/);
    }
    expect((await call('GET', '/health')).status).toBe(503);
    expect(captured.find(/database unavailable/)).toHaveLength(1);
    expect(captured.find(/unhandled error/)).toHaveLength(0);
    expect(captured.lines.filter((l) => l.err?.stack)).toHaveLength(0);

    handle = await startEmbeddedPostgres(dir, pgPort);
    const status = await waitFor(
      'the API to answer again',
      async () => (await call('GET', '/available-parts?category=GPU', key)).status,
      {
        until: (s) => s === 200,
        timeoutMs: 30_000,
        intervalMs: 500,
      },
    );
    expect(status).toBe(200);
    expect((await call('GET', '/available-parts?category=GPU', token)).status).toBe(200);
    expect((await call('GET', '/health')).status).toBe(200);
    expect(captured.find(/database reachable again/)).toHaveLength(1);
    expect(captured.find(/database unavailable/)).toHaveLength(1);
  });
});
