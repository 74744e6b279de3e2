/**
 * bench:control-plane as a library function (the CLI entry is bench/control-plane.ts; the smoke
 * test calls it small): a real serve in this process, real PostgreSQL (embedded in a temp dir,
 * or `databaseUrl`), N real worker processes on the fake stage, the load of load.ts, and per
 * worker count the figures of the report (report.ts). Optionally preloads many rows first and
 * times the periodic and operator queries on them (seed.ts).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createApiKey } from '../../src/auth/api-keys.js';
import { startServer } from '../../src/api/server.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { freePort } from '../../src/db/free-port.js';
import { workerPoolSize } from '../../src/db/connection-budget.js';
import { installQueue } from '../../src/jobs/queue/runner.js';
import { createLogger } from '../../src/log.js';
import { runLoad } from './load.js';
import { connectionSampler, postmasterPid, treeCpuSeconds } from './pg-stats.js';
import { seedRows, timeQueries, type QueryTimings } from './seed.js';
import { startBenchWorkers, stopBenchWorkers } from './workers.js';

export interface BenchOptions {
  /** worker process counts, one measured run each */
  workers: number[];
  concurrency: number;
  /** renders submitted per run */
  renders: number;
  /** submissions a second */
  rate: number;
  customers: number;
  /** the fake stage's cost per frame */
  frameMs: number;
  repeatShare: number;
  pollMs: number;
  /** renders to preload (and 5x as many render_events); 0: none */
  seedRows: number;
  /** an existing database (the smoke test's); default: an embedded PostgreSQL in a temp dir */
  databaseUrl?: string;
  /** max_connections of the embedded PostgreSQL (default 400: 40 workers x (4 + 2) and the serve fit) */
  maxConnections?: number;
  /** environment for every worker (a setting to compare) */
  workerEnv?: Record<string, string>;
  /** > 0: run the last worker count once more with this pool size per worker (the old default was 10): before/after the budget */
  comparePool?: number;
  /** progress lines */
  log?: (line: string) => void;
}

export interface RunFigures {
  workers: number;
  concurrency: number;
  label: string;
  renders: number;
  completed: number;
  failed: number;
  repeats: number;
  refused: Record<string, number>;
  /** render + chunk + assemble tasks this run's renders took */
  tasks: { render: number; chunk: number; assemble: number };
  splitRenders: number;
  wallS: number;
  jobsClaimedPerS: number;
  claimMs: { p50: number; p99: number; n: number };
  submitMs: { p50: number; p99: number };
  pollMs: { p50: number; p99: number; n: number };
  connections: { maxTotal: number; maxPerWorker: number; meanPerWorker: number; poolSizePerWorker: number };
  dbCpuS: number | null;
  dbCpuSPer1000: number | null;
  /** DB CPU seconds per second of the run: cores the database kept busy */
  dbCores: number | null;
  /** the statements that took most of the database's time this run (pg_stat_statements; empty without it) */
  topStatements: StatementTime[];
}

export interface ControlPlaneReport {
  options: Omit<BenchOptions, 'log' | 'databaseUrl'>;
  machine: { cpus: number; model: string };
  runs: RunFigures[];
  /** last run over first run, per figure (e.g. 40 workers over 10) */
  growth: { from: number; to: number; ratios: Record<string, number | null> } | null;
  seeded: { renders: number; events: number; seconds: number } | null;
  queries: QueryTimings | null;
}

export interface StatementTime {
  query: string;
  calls: number;
  totalMs: number;
  meanMs: number;
}

/** pg_stat_statements in this database when the server preloads it; false when it does not (an external server). */
async function enableStatements(db: Db): Promise<boolean> {
  try {
    await db.pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.pool.query('SELECT 1 FROM pg_stat_statements LIMIT 1');
    return true;
  } catch {
    return false;
  }
}

/** The statements with the most execution time since the last reset. */
async function topStatements(db: Db, n = 8): Promise<StatementTime[]> {
  const { rows } = await db.pool.query<{ query: string; calls: string; total: number; mean: number }>(
    `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, calls, total_exec_time AS total, mean_exec_time AS mean
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time DESC LIMIT $1`,
    [n],
  );
  return rows.map((r) => ({
    query: r.query.slice(0, 160),
    calls: Number(r.calls),
    totalMs: Math.round(r.total),
    meanMs: Math.round(r.mean * 100) / 100,
  }));
}

export function pct(xs: readonly number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]! * 10) / 10;
}

/** Task counts and claim latencies (runnable -> started, database times) of the renders behind these jobs. */
async function taskFigures(db: Db, jobIds: readonly string[]) {
  const { rows } = await db.pool.query<{
    renders: number;
    started: number;
    split: number;
    chunks: number;
    lat: number[] | null;
    clat: number[] | null;
  }>(
    `WITH r AS (SELECT DISTINCT r.* FROM renders r JOIN jobs j ON j.render_id = r.id WHERE j.id = ANY($1::uuid[]))
     SELECT (SELECT count(*) FROM r)::int AS renders,
            (SELECT count(*) FROM r WHERE started_at IS NOT NULL)::int AS started,
            (SELECT count(*) FROM r WHERE chunk_total > 0)::int AS split,
            (SELECT count(*) FROM render_chunks c JOIN r ON r.id = c.render_id AND r.chunk_plan = c.plan)::int AS chunks,
            -- a render job is runnable from its submission (enqueued in the same transaction)
            (SELECT array_agg(extract(epoch FROM started_at - created_at) * 1000) FROM r WHERE started_at IS NOT NULL) AS lat,
            -- a chunk job is runnable from its render's split, moments after the render task started
            (SELECT array_agg(extract(epoch FROM c.started_at - r.started_at) * 1000) FROM render_chunks c JOIN r ON r.id = c.render_id AND r.chunk_plan = c.plan WHERE c.started_at IS NOT NULL) AS clat`,
    [jobIds],
  );
  const f = rows[0]!;
  return { ...f, lat: [...(f.lat ?? []), ...(f.clat ?? [])].map(Number) };
}

export async function runControlPlaneBench(o: BenchOptions): Promise<ControlPlaneReport> {
  const say = o.log ?? (() => {});
  // the workers run the compiled CLI: bring dist/ up to date (a no-op when it is)
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-bench-cp-'));
  await fs.chmod(dataDir, 0o755);
  // our own embedded server: room for 40+ workers, and pg_stat_statements to name the costly queries
  const embedded = o.databaseUrl
    ? null
    : await startEmbeddedPostgres(dataDir, await freePort(), () => {}, {
        maxConnections: o.maxConnections ?? 400,
        settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' },
      });
  const databaseUrl = o.databaseUrl ?? embedded!.connectionString('postgres');
  const cfg = loadConfig(
    {
      dataDir,
      databaseUrl,
      port: 0,
      logLevel: 'silent',
      rateLimitPerMinute: 0,
      customerRateLimitPerMinute: 0,
      authFailureLimitPerMinute: 0,
      maxCustomerInFlightSeconds: 0,
      signingSecret: 'bench-secret-'.padEnd(40, 'x'),
    },
    {},
  );
  const log = createLogger({ logLevel: 'silent' });
  const db = await openDatabase(cfg, { migrate: true, applicationName: 'render-farm bench serve' }).catch(
    async (err) => {
      await embedded?.stop();
      throw err;
    },
  );
  const statements = await enableStatements(db);
  const server = await startServer(cfg, { db, log });
  const report: ControlPlaneReport = {
    options: {
      workers: o.workers,
      comparePool: o.comparePool,
      concurrency: o.concurrency,
      renders: o.renders,
      rate: o.rate,
      customers: o.customers,
      frameMs: o.frameMs,
      repeatShare: o.repeatShare,
      pollMs: o.pollMs,
      seedRows: o.seedRows,
      workerEnv: o.workerEnv,
    },
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '?' },
    runs: [],
    growth: null,
    seeded: null,
    queries: null,
  };
  try {
    await installQueue(db.pool);
    const keys: string[] = [];
    const customerIds: string[] = [];
    for (let i = 0; i < o.customers; i++) {
      const k = await createApiKey(db.db, `bench-customer-${String(i).padStart(3, '0')}`, 'prod');
      keys.push(k.key);
      customerIds.push(k.record.customerId);
    }
    if (o.seedRows > 0) {
      say(`seeding ${o.seedRows} renders and ${o.seedRows * 5} render_events...`);
      report.seeded = await seedRows(db, customerIds, o.seedRows);
      say(`seeded in ${report.seeded.seconds.toFixed(0)} s`);
    }
    const pgPid = await postmasterPid(db.pool);
    // the connection string the workers use reaches the same database as ours
    const plan = o.workers.map((n) => ({ n, pool: 0 }));
    if (o.comparePool && o.workers.length) plan.push({ n: o.workers.at(-1)!, pool: o.comparePool });
    for (const [runIdx, { n, pool }] of plan.entries()) {
      say(
        `run ${runIdx + 1}/${plan.length}: starting ${n} workers x concurrency ${o.concurrency}${pool ? `, pool ${pool}` : ''}...`,
      );
      const env = { ...o.workerEnv, ...(pool ? { RENDER_FARM_WORKER_DB_POOL: String(pool) } : {}) };
      const workers = await startBenchWorkers(n, {
        databaseUrl,
        dataDir,
        concurrency: o.concurrency,
        frameMs: o.frameMs,
        env,
      });
      try {
        if (statements) await db.pool.query('SELECT pg_stat_statements_reset()');
        const sampler = connectionSampler(db.pool);
        const cpu0 = pgPid ? await treeCpuSeconds(pgPid) : null;
        say(`run ${runIdx + 1}: ${o.renders} renders at ${o.rate}/s from ${o.customers} customers...`);
        const load = await runLoad({
          baseUrl: server.url,
          keys,
          renders: o.renders,
          rate: o.rate,
          repeatShare: o.repeatShare,
          pollMs: o.pollMs,
          salt: runIdx + 1,
          timeoutMs: Math.max(300_000, (o.renders / o.rate) * 1000 * 10),
        });
        const cpu1 = pgPid ? await treeCpuSeconds(pgPid) : null;
        const conns = await sampler.stop();
        const t = await taskFigures(db, load.jobIds);
        const tasks = { render: t.started, chunk: t.chunks, assemble: t.split };
        const dbCpuS = cpu0 !== null && cpu1 !== null ? Math.round((cpu1 - cpu0) * 100) / 100 : null;
        const fig: RunFigures = {
          workers: n,
          concurrency: o.concurrency,
          label: `${n} x ${o.concurrency}${pool ? `, pool ${pool}` : ''}`,
          renders: load.submitted,
          completed: load.completed,
          failed: load.failed,
          repeats: load.repeats,
          refused: load.refused,
          tasks,
          splitRenders: t.split,
          wallS: Math.round(load.wallS * 10) / 10,
          jobsClaimedPerS:
            Math.round(((tasks.render + tasks.chunk + tasks.assemble) / Math.max(load.wallS, 1e-3)) * 10) / 10,
          claimMs: { p50: pct(t.lat, 50), p99: pct(t.lat, 99), n: t.lat.length },
          submitMs: { p50: pct(load.submitMs, 50), p99: pct(load.submitMs, 99) },
          pollMs: { p50: pct(load.pollMs, 50), p99: pct(load.pollMs, 99), n: load.polls },
          connections: {
            maxTotal: conns.maxTotal,
            maxPerWorker: conns.maxPerWorker,
            meanPerWorker: Math.round(conns.meanPerWorker * 10) / 10,
            poolSizePerWorker: workerPoolSize(o.concurrency, pool),
          },
          dbCpuS,
          dbCpuSPer1000: dbCpuS !== null ? Math.round((dbCpuS / Math.max(1, t.renders)) * 1000 * 100) / 100 : null,
          dbCores: dbCpuS !== null ? Math.round((dbCpuS / Math.max(load.wallS, 1e-3)) * 1000) / 1000 : null,
          topStatements: statements ? await topStatements(db) : [],
        };
        report.runs.push(fig);
        say(
          `run ${runIdx + 1}: ${fig.completed}/${fig.renders} completed in ${fig.wallS} s, ${fig.jobsClaimedPerS} jobs/s, claim p99 ${fig.claimMs.p99} ms, ${conns.maxTotal} connections`,
        );
      } finally {
        await stopBenchWorkers(workers);
      }
    }
    const first = report.runs[0];
    const last = report.runs[o.workers.length - 1];
    if (first && last && last !== first) {
      const ratio = (a: number | null, b: number | null) =>
        a !== null && b !== null && a > 0 ? Math.round((b / a) * 100) / 100 : null;
      report.growth = {
        from: first.workers,
        to: last.workers,
        ratios: {
          workers: ratio(first.workers, last.workers),
          jobsClaimedPerS: ratio(first.jobsClaimedPerS, last.jobsClaimedPerS),
          claimP50: ratio(first.claimMs.p50, last.claimMs.p50),
          claimP99: ratio(first.claimMs.p99, last.claimMs.p99),
          submitP99: ratio(first.submitMs.p99, last.submitMs.p99),
          pollP99: ratio(first.pollMs.p99, last.pollMs.p99),
          connectionsTotal: ratio(first.connections.maxTotal, last.connections.maxTotal),
          connectionsPerWorker: ratio(first.connections.maxPerWorker, last.connections.maxPerWorker),
          dbCpuSPer1000: ratio(first.dbCpuSPer1000, last.dbCpuSPer1000),
          dbCores: ratio(first.dbCores, last.dbCores),
        },
      };
    }
    if (o.seedRows > 0) {
      say('timing the sweeper, ageing, top and /health queries on the seeded rows...');
      report.queries = await timeQueries(db, server.url, customerIds[0]!);
    }
  } finally {
    await server.close();
    await db.close();
    await embedded?.stop();
    await fs.rm(dataDir, { recursive: true, force: true }).catch(() => {});
  }
  return report;
}
