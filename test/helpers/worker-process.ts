/** `render-farm worker` as a real child process, and a bounded poll to wait on its effects. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

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

/** Spawns a worker on `databaseUrl` and resolves once it is taking jobs. */
export async function spawnWorker(databaseUrl: string, dataDir: string, args: string[] = [], env: Record<string, string> = {}): Promise<WorkerChild> {
  const proc = spawn('node', [BIN, 'worker', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl, RENDER_FARM_DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  const waiters = new Set<() => void>();
  const onData = (d: Buffer) => {
    chunks.push(d.toString());
    for (const w of waiters) w();
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((r) =>
    proc.on('exit', (code) => {
      exitCode = code;
      for (const w of waiters) w();
      r(code);
    }),
  );
  const output = () => chunks.join('');
  const waitForOutput = (text: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output().includes(text)) done(resolve);
        else if (exitCode !== undefined) done(() => reject(new Error(`worker exited ${exitCode} before printing "${text}":\n${output()}`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`timed out waiting for the worker to print "${text}":\n${output()}`))), timeoutMs);
      const done = (fn: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        fn();
      };
      waiters.add(check);
      check();
    });
  const child: WorkerChild = { proc, pid: proc.pid!, output, exited, waitForOutput };
  await waitForOutput('is taking jobs', 90_000);
  return child;
}

/** Polls fn every 250 ms until it returns something truthy; throws naming `what` after the bound. */
export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
