/** `render-farm up` as a real child process on a data dir of its own; wait on its output. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/free-port.js';
import { watchOutput } from './child-output.js';

const BIN = path.resolve('bin/render-farm');

export interface UpChild {
  proc: ChildProcess;
  dataDir: string;
  /** the API's port (fixed, so /health can be polled before the banner names it) */
  port: number;
  url: string;
  /** everything it wrote, stdout and stderr interleaved */
  output(): string;
  /** resolves with the exit code (null: killed by a signal) */
  exited: Promise<number | null>;
  /** resolves once the output matches; rejects if the process exits first or the bound passes */
  waitForOutput(text: string | RegExp, timeoutMs: number): Promise<void>;
}

/** A fresh data dir for `up` (removed by the caller). */
export function makeUpDataDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'rf-up-'));
}

/**
 * The environment `up` runs in: this process's without the service's own settings (the developer's
 * shell must not change the outcome), on dataDir and a free PostgreSQL port, JSON logs at info,
 * whole renders (no chunks); `env` goes over that.
 */
export async function upEnv(dataDir: string, env: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('RENDER_FARM_') && !['DATABASE_URL', 'STORAGE_URL', 'LOG_LEVEL', 'LOG_FORMAT'].includes(k),
    ),
  );
  return {
    ...clean,
    RENDER_FARM_DATA_DIR: dataDir,
    RENDER_FARM_PG_PORT: String(await freePort()),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    RENDER_FARM_CHUNK_SECONDS: '0',
    ...env,
  };
}

/**
 * Spawns `up` on `dataDir` (the same one again: a second `up` on what the first left) with a
 * free API and PostgreSQL port. `terminalJob`: in a process group of its own, as a shell runs a
 * job, so that a signal to the group is what Ctrl-C at a terminal sends.
 */
export async function spawnUp(
  dataDir: string,
  env: Record<string, string> = {},
  opts: { terminalJob?: boolean } = {},
): Promise<UpChild> {
  const port = await freePort();
  const proc = spawn(process.execPath, [BIN, 'up', '--port', String(port)], {
    env: await upEnv(dataDir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.terminalJob === true,
  });
  const { output, exited, waitForOutput } = watchOutput(proc, 'up');
  return { proc, dataDir, port, url: `http://127.0.0.1:${port}`, output, exited, waitForOutput };
}

/** The pid in the cluster's postmaster.pid (0 when there is none). */
export async function postmasterPid(dataDir: string): Promise<number> {
  const text = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '');
  return Number(text.split('\n')[0]) || 0;
}
