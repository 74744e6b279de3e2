/**
 * The API server a bench drives: a throwaway data dir with its embedded PostgreSQL, migrated, no
 * rate limits (a bench is its own heaviest customer), quiet logs.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../src/api/server.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { freePort } from '../src/db/free-port.js';
import { createLogger } from '../src/log.js';

/** The HS256 secret a bench's server signs with (and a bench's bare baseline verifies with). */
export const BENCH_SECRET = 'bench-secret-'.padEnd(40, 'x');

/** `label` names the temp dir (`rf-bench-<label>-`); `overrides` add to the configuration. */
export async function startBenchServer(
  label: string,
  poolSize: number,
  overrides: Parameters<typeof loadConfig>[0] = {},
) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `rf-bench-${label}-`));
  const cfg = loadConfig({
    dataDir,
    port: 0,
    embeddedPgPort: await freePort(),
    logLevel: 'silent',
    rateLimitPerMinute: 0,
    customerRateLimitPerMinute: 0,
    ...overrides,
    signingSecret: BENCH_SECRET,
  });
  const log = createLogger({ logLevel: 'silent' });
  const db = await openDatabase(cfg, { migrate: true, poolSize });
  const server = await startServer(cfg, { db, log });
  return { dataDir, cfg, log, db, server };
}
