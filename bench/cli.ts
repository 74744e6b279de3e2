/**
 * CLI start-up: the compiled bin/render-farm (dist/) vs the TypeScript sources through tsx (what
 * every start cost before dist/), run in turn, A B A B, medians of N runs and their ratio:
 * - `--help`: start to exit;
 * - `jobs list --json` against a running PostgreSQL: start to the first byte of output, and to exit;
 * - `worker`: start to its "is taking jobs" line (it claims queued jobs from then on), then SIGTERM.
 *
 *   npm run bench:cli [-- --runs 10 --worker-runs 5]
 * Goal (docs/benchmarks.md, "CLI start-up"): `--help` and `jobs list` first output <= 300 ms median on a quiet 2-core machine.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { freePort } from '../src/db/free-port.js';

const argv = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const RUNS = flag('runs', 10);
const WORKER_RUNS = flag('worker-runs', 5);

const VARIANTS = {
  compiled: [path.resolve('bin/render-farm')],
  sources: [path.resolve('bench/cli-sources.mjs')],
} as const;
type Variant = keyof typeof VARIANTS;

// the compiled side must be current, or bin/render-farm would run the sources itself
execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-bench-cli-'));
const cfg = loadConfig({ dataDir, embeddedPgPort: await freePort(), logLevel: 'silent' });
const db = await openDatabase(cfg, { migrate: true });
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATABASE_URL: db.connectionString,
  RENDER_FARM_DATA_DIR: dataDir,
  LOG_LEVEL: 'info',
};

interface Timing {
  first: number;
  exit: number;
}

/** Runs one command; ms to the first output byte (or to `until` in the output) and to exit. */
function time(variant: Variant, args: string[], until?: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const proc = spawn(process.execPath, [...VARIANTS[variant], ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let first = 0;
    let out = '';
    const on = (d: Buffer) => {
      out += d.toString();
      if (first) return;
      if (until ? out.includes(until) : out.length > 0) {
        first = performance.now() - t0;
        if (until) proc.kill('SIGTERM');
      }
    };
    proc.stdout.on('data', on);
    if (until) proc.stderr.on('data', on);
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const exit = performance.now() - t0;
      if (!first || (!until && code !== 0))
        reject(new Error(`${variant} ${args.join(' ')} exited ${code}:\n${out.slice(-2000)}`));
      else resolve({ first, exit });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function compare(label: string, args: string[], runs: number, until?: string): Promise<void> {
  const got: Record<Variant, Timing[]> = { compiled: [], sources: [] };
  let failed = 0;
  // a worker's start checks WebGL in Chromium, which can fail on a loaded machine: count, go on
  const attempt = async (v: Variant) => {
    try {
      return await time(v, args, until);
    } catch (err) {
      if (!until) throw err;
      failed++;
      console.error(`(${v} ${label}: ${(err as Error).message.split('\n')[1] ?? 'failed'})`);
      return null;
    }
  };
  await attempt('compiled'); // warm-up: disk cache
  await attempt('sources');
  for (let i = 0; i < runs; i++) {
    for (const v of ['compiled', 'sources'] as const) {
      const t = await attempt(v);
      if (t) got[v].push(t);
    }
  }
  if (!got.compiled.length || !got.sources.length) {
    console.log(`${label}: no complete runs (${failed} failed)`);
    return;
  }
  const row = (what: string, pick: (t: Timing) => number) => {
    const c = median(got.compiled.map(pick));
    const s = median(got.sources.map(pick));
    console.log(
      `${`${label} ${what}`.padEnd(40)} ${c.toFixed(0).padStart(8)} ${s.toFixed(0).padStart(8)} ${(c / s).toFixed(2).padStart(8)}`,
    );
  };
  row(until ? `to "${until}"${failed ? ` (${failed} failed)` : ''}` : 'first output', (t) => t.first);
  if (!until) row('exit', (t) => t.exit);
}

try {
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, ${os.cpus().length} cores, ${RUNS} runs (worker ${WORKER_RUNS})`,
  );
  console.log(`${'median ms'.padEnd(40)} ${'compiled'.padStart(8)} ${'sources'.padStart(8)} ${'ratio'.padStart(8)}`);
  await compare('--help', ['--help'], RUNS);
  await compare('jobs list --json', ['jobs', 'list', '--json'], RUNS);
  await compare('worker', ['worker'], WORKER_RUNS, 'is taking jobs');
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await db.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}
