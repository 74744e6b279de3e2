/** A fresh migrated database per test file, cloned from the template made in global-setup. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config, type ConfigInput } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { perFile } from './per-file.js';

export interface TestDb {
  db: Db;
  cfg: Config;
  /** connection string of this file's database */
  url: string;
  close(): Promise<void>;
}

export async function createTestDb(overrides: Partial<Record<keyof ConfigInput, unknown>> = {}): Promise<TestDb> {
  const adminUrl = inject('pgAdminUrl');
  const name = `rf_t_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  await admin.end();
  const url = adminUrl.replace(/\/postgres$/, `/${name}`);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-test-data-'));
  // an empty env: the developer's shell must not change test outcomes
  const cfg = loadConfig(
    { databaseUrl: url, dataDir, signingSecret: 'test-secret-'.padEnd(40, 'x'), ...overrides },
    {},
  );
  const db = await openDatabase(cfg);
  return {
    db,
    cfg,
    url,
    close: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await a.end();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** This file's test database, made in beforeAll (then `setup`, e.g. installing the queue) and dropped in afterAll. */
export function useTestDb(
  overrides: Parameters<typeof createTestDb>[0] = {},
  opts: { setup?: (t: TestDb) => Promise<unknown>; timeoutMs?: number } = {},
): TestDb {
  return perFile(
    'the test database',
    async () => {
      const t = await createTestDb(overrides);
      await opts.setup?.(t);
      return t;
    },
    (t) => t.close(),
    opts.timeoutMs,
  );
}
