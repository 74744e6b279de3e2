/**
 * vitest globalSetup of the db and render tiers: one real PostgreSQL for the whole run (embedded),
 * with a migrated template database that each test file clones (createTestDb). Both projects list
 * this file and vitest runs each project's global setup, so the server is shared through
 * globalThis (the vitest main process) and stopped when the last project tears down.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { freePort } from '../../src/db/free-port.js';

export const TEMPLATE_DB = 'rf_test_template';

interface Shared {
  users: number;
  ready: Promise<{ handle: EmbeddedPostgresHandle; dataDir: string }>;
}
const KEY = Symbol.for('render-farm.test-postgres');
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

async function start(): Promise<{ handle: EmbeddedPostgresHandle; dataDir: string }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-test-pg-'));
  await fs.chmod(dataDir, 0o755);
  const handle = await startEmbeddedPostgres(dataDir, await freePort());
  const admin = new pg.Client({ connectionString: handle.connectionString('postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: handle.connectionString(TEMPLATE_DB) });
  await migrate(pool);
  await pool.end();
  return { handle, dataDir };
}

export async function setup(project: TestProject): Promise<void> {
  const shared = (registry[KEY] ??= { users: 0, ready: start() });
  shared.users++;
  const { handle } = await shared.ready;
  project.provide('pgAdminUrl', handle.connectionString('postgres'));
  project.provide('pgTemplate', TEMPLATE_DB);
}

export async function teardown(): Promise<void> {
  const shared = registry[KEY];
  if (!shared || --shared.users > 0) return;
  registry[KEY] = undefined;
  const { handle, dataDir } = await shared.ready;
  await handle.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}
