/**
 * vitest globalSetup: one real PostgreSQL for the whole run (embedded, or TEST_DATABASE_URL's
 * server), with a migrated template database that each test file clones (createTestDb); and a
 * current dist/, so the CLI the tests spawn is the compiled one users run, with the edits in it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { freePort } from '../../src/db/free-port.js';
import { sweepStaleTempDirs } from '../../src/temp-dirs.js';

export const TEMPLATE_DB = 'rf_test_template';

let handle: EmbeddedPostgresHandle | null = null;
let dataDir: string | null = null;

export async function setup(project: TestProject): Promise<void> {
  // Chromium profiles and job dirs of test processes killed in earlier runs
  await sweepStaleTempDirs();
  // unchanged outputs are not rewritten: a no-op after `npm install`
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: ['ignore', 'ignore', 'inherit'] });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-test-pg-'));
  await fs.chmod(dataDir, 0o755);
  handle = await startEmbeddedPostgres(dataDir, await freePort());
  const admin = new pg.Client({ connectionString: handle.connectionString('postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: handle.connectionString(TEMPLATE_DB) });
  await migrate(pool);
  await pool.end();
  project.provide('pgAdminUrl', handle.connectionString('postgres'));
  project.provide('pgTemplate', TEMPLATE_DB);
}

export async function teardown(): Promise<void> {
  await handle?.stop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  // what this run's test processes and the CLI children they killed left behind
  await sweepStaleTempDirs();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}
