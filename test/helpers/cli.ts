/** `render-farm` as a child process on a test database, with an environment of only what it needs. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestDb } from './db.js';

const run = promisify(execFile);
const BIN = path.resolve('bin/render-farm');

/** A runner for `render-farm ...args` on t's database; resolves with the exit code, also a non-zero one. */
export function cliOn(t: Pick<TestDb, 'url' | 'cfg'>) {
  return async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: t.url,
      RENDER_FARM_DATA_DIR: t.cfg.dataDir,
    };
    try {
      return { code: 0, ...(await run('node', [BIN, ...args], { env, timeout: 60_000 })) };
    } catch (e) {
      const err = e as { code: number; stdout: string; stderr: string };
      return { code: err.code, stdout: err.stdout, stderr: err.stderr };
    }
  };
}
