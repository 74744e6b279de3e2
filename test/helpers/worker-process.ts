/** `render-farm worker` as a real child process; wait on its output. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { watchOutput } from './child-output.js';

const BIN = path.resolve('bin/render-farm');

export interface WorkerChild {
  proc: ChildProcess;
  pid: number;
  /** everything it wrote, stdout and stderr interleaved */
  output(): string;
  /** resolves with the exit code */
  exited: Promise<number | null>;
  /** resolves when the output contains text; rejects if the process exits first or the bound passes */
  waitForOutput(text: string, timeoutMs: number): Promise<void>;
}

/** Spawns a worker on `databaseUrl` and resolves once it is taking jobs (`opts.ready: false`: at once). */
export async function spawnWorker(
  databaseUrl: string,
  dataDir: string,
  args: string[] = [],
  env: Record<string, string> = {},
  opts: { ready?: boolean } = {},
): Promise<WorkerChild> {
  const proc = spawn('node', [BIN, 'worker', ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      RENDER_FARM_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited, waitForOutput } = watchOutput(proc, 'the worker');
  const child: WorkerChild = { proc, pid: proc.pid!, output, exited, waitForOutput };
  if (opts.ready !== false) await waitForOutput('is taking jobs', 90_000);
  return child;
}
