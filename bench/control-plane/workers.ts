/**
 * The bench's worker processes: real `render-farm worker` children (the compiled CLI) on the
 * fake stage (RENDER_FARM_FAKE_STAGE_MS), so tens of them fit on a small machine. Everything
 * but the pixels is the production path: graphile-worker runner, claims, chunks, assemble, store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve('bin/render-farm');

export interface BenchWorker {
  proc: ChildProcess;
  pid: number;
  output(): string;
  exited: Promise<number | null>;
}

export interface WorkerEnv {
  databaseUrl: string;
  dataDir: string;
  concurrency: number;
  frameMs: number;
  /** extra environment (e.g. a setting the bench compares) */
  env?: Record<string, string>;
}

/** Starts one worker and resolves once it takes jobs (rejects with its output if it exits first). */
export function startBenchWorker(w: WorkerEnv): Promise<BenchWorker> {
  const proc = spawn(process.execPath, [BIN, 'worker'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: w.databaseUrl,
      RENDER_FARM_DATA_DIR: w.dataDir,
      RENDER_FARM_WORKER_CONCURRENCY: String(w.concurrency),
      RENDER_FARM_FAKE_STAGE_MS: String(w.frameMs),
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      ...w.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    // the last 20 kB is enough to say why one failed
    out = (out + d.toString()).slice(-20_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  const worker: BenchWorker = { proc, pid: proc.pid!, output: () => out, exited };
  return new Promise((resolve, reject) => {
    const check = () => {
      if (out.includes('is taking jobs')) {
        proc.stdout!.off('data', check);
        proc.stderr!.off('data', check);
        resolve(worker);
      }
    };
    proc.stdout!.on('data', check);
    proc.stderr!.on('data', check);
    void exited.then((code) =>
      reject(new Error(`worker ${proc.pid} exited ${code} before taking jobs:\n${out.slice(-3000)}`)),
    );
  });
}

/** Starts `n` workers, `batch` at a time (each start runs migrations checks and the queue install). */
export async function startBenchWorkers(n: number, w: WorkerEnv, batch = 8): Promise<BenchWorker[]> {
  const all: BenchWorker[] = [];
  try {
    for (let i = 0; i < n; i += batch)
      all.push(...(await Promise.all(Array.from({ length: Math.min(batch, n - i) }, () => startBenchWorker(w)))));
  } catch (err) {
    await stopBenchWorkers(all);
    throw err;
  }
  return all;
}

/** SIGTERM (drain) and wait for every one to exit. */
export async function stopBenchWorkers(ws: readonly BenchWorker[]): Promise<void> {
  for (const w of ws) w.proc.kill('SIGTERM');
  await Promise.all(ws.map((w) => w.exited));
}
