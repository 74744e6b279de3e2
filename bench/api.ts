/**
 * API benchmark on loopback, in one run: a bare Express + JWT endpoint (the floor any Node API
 * pays) vs our cache-hit POST /render-build vs GET /render-build/:id (autocannon: req/s,
 * p50/p99), and the submit -> worker-start latency with an idle worker (from the database's
 * own timestamps: renders.created_at to renders.started_at).
 *
 *   npm run bench:api [-- --seconds 10 --connections 10 --samples 10]
 * Targets (render-farm issues): cache-hit submit and poll >= 50% of the bare endpoint's req/s,
 * p99 <= 30 ms; submit -> worker start p50 < 50 ms. Also printed: the database statements of one
 * cache hit and one poll, and the load average as each run started.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import express from 'express';
import jwt from 'jsonwebtoken';
import { createApiKey } from '../src/auth/api-keys.js';
import { DEMO_BUILDS } from '../src/catalog/demo-catalog.js';
import { startWorker } from '../src/jobs/worker.js';
import { watchQueries } from '../src/db/watch-queries.js';
import { BENCH_SECRET, startBenchServer } from './bench-server.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 10);
const CONNECTIONS = arg('connections', 10);
const SAMPLES = arg('samples', 10);
const run = promisify(execFile);
const AUTOCANNON = path.join(
  path.dirname(createRequire(import.meta.url).resolve('autocannon/package.json')),
  'autocannon.js',
);

interface Load {
  name: string;
  /** the machine's 1-minute load average as the run started (a shared machine: trust the ratio to bare) */
  load1: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/**
 * autocannon runs in its own process: in the server's process its client work would share the
 * server's event loop and halve what it measures.
 */
async function load(name: string, spec: LoadSpec): Promise<Load> {
  const args = [AUTOCANNON, '-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), '-m', spec.method ?? 'GET'];
  for (const [k, v] of Object.entries(spec.headers)) args.push('-H', `${k}=${v}`);
  if (spec.body) args.push('-b', spec.body);
  args.push(spec.url);
  const load1 = os.loadavg()[0]!;
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return {
    name,
    load1,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const { dataDir, cfg, log, db, server } = await startBenchServer('api', 20);
const worker = await startWorker(cfg, db, server.ctx.store, log, {
  concurrency: 1,
  renderTimeoutMs: 120_000,
  drainTimeoutMs: 10_000,
});

// the bare floor: express.json + HS256 verify + a JSON answer
const secret = BENCH_SECRET;
const bare = express();
bare.use(express.json());
bare.post('/bare', (req, res) => {
  const token = (req.get('authorization') ?? '').slice(7);
  jwt.verify(token, secret, { algorithms: ['HS256'] });
  res.json({ ok: true, parts: Object.keys(req.body?.parts ?? {}).length });
});
const bareServer = http.createServer(bare);
await new Promise<void>((r) => bareServer.listen(0, '127.0.0.1', r));
const bareUrl = `http://127.0.0.1:${(bareServer.address() as net.AddressInfo).port}`;

try {
  const { key } = await createApiKey(db.db, 'bench');
  const mint = await fetch(`${server.url}/auth/render-session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ttl_seconds: 300 }),
  });
  const token = ((await mint.json()) as { session_token: string }).session_token;
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const build = DEMO_BUILDS[0]!;
  const body = JSON.stringify({ parts: build.parts, format: 'sprite', width: 256, height: 256, profile: 'fast' });

  // one real render so the submit below is a cache hit
  const first = (await (await fetch(`${server.url}/render-build`, { method: 'POST', headers: auth, body })).json()) as {
    job_id: string;
  };
  for (;;) {
    const s = (await (await fetch(`${server.url}/render-build/${first.job_id}`, { headers: auth })).json()) as {
      status: string;
    };
    if (s.status === 'completed') break;
    if (s.status === 'error') throw new Error('the warm-up render failed');
    await new Promise((r) => setTimeout(r, 200));
  }

  // the database statements of one request of each kind (test/api/hot-path-queries.test.ts holds them exact)
  const roundTrips = async (request: () => Promise<Response>) => {
    let n = 0;
    // the worker and the serve's webhook runner poll graphile's queue through this pool on their own clock
    const stop = watchQueries(db.pool, (text) => /graphile_worker"?\._private/.test(text) || n++);
    try {
      await (await request()).arrayBuffer();
    } finally {
      stop();
    }
    return n;
  };
  const hitTrips = await roundTrips(() => fetch(`${server.url}/render-build`, { method: 'POST', headers: auth, body }));
  const pollTrips = await roundTrips(() => fetch(`${server.url}/render-build/${first.job_id}`, { headers: auth }));

  const results = [
    await load('bare Express + JWT POST', { url: `${bareUrl}/bare`, method: 'POST', headers: auth, body }),
    await load('POST /render-build (cache hit)', {
      url: `${server.url}/render-build`,
      method: 'POST',
      headers: auth,
      body,
    }),
    await load('GET /render-build/:id', { url: `${server.url}/render-build/${first.job_id}`, headers: auth }),
  ];

  // submit -> worker start, the worker idle before each submission
  const latencies: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const b = JSON.stringify({
      parts: build.parts,
      format: 'sprite',
      width: 256,
      height: 256,
      profile: 'fast',
      cameraZoom: 1 + (i + 1) / 1000,
    });
    const job = (await (
      await fetch(`${server.url}/render-build`, { method: 'POST', headers: auth, body: b })
    ).json()) as { job_id: string };
    for (;;) {
      const s = (await (await fetch(`${server.url}/render-build/${job.job_id}`, { headers: auth })).json()) as {
        status: string;
      };
      if (s.status === 'completed' || s.status === 'error') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const row = await db.db
      .selectFrom('jobs')
      .innerJoin('renders', 'renders.id', 'jobs.render_id')
      .select(['renders.created_at', 'renders.started_at'])
      .where('jobs.id', '=', job.job_id)
      .executeTakeFirstOrThrow();
    latencies.push(new Date(row.started_at!).getTime() - new Date(row.created_at).getTime());
  }

  const floor = results[0]!.rps;
  console.log(
    `\nAPI on loopback: ${SECONDS} s per run, ${CONNECTIONS} connections, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('endpoint                          req/s     p50 ms  p99 ms  errors  vs bare  load');
  for (const r of results) {
    console.log(
      `${r.name.padEnd(32)} ${r.rps.toFixed(0).padStart(7)} ${String(r.p50).padStart(9)} ${String(r.p99).padStart(7)} ${String(r.errors).padStart(7)}  ${((r.rps / floor) * 100).toFixed(0).padStart(5)}%  ${r.load1.toFixed(1).padStart(5)}`,
    );
  }
  console.log(
    `database statements per request: cache hit ${hitTrips}, poll ${pollTrips} (key state cached or not: up to one more a key every 5 s)`,
  );
  console.log(
    `\nsubmit -> worker start (idle worker, ${SAMPLES} samples): p50 ${percentile(latencies, 50)} ms, p90 ${percentile(latencies, 90)} ms, max ${Math.max(...latencies)} ms`,
  );
  const hit = results[1]!;
  const poll = results[2]!;
  const target = (r: Load) =>
    `>= 50% of bare: ${r.rps / floor >= 0.5 ? 'met' : 'missed'} (${((r.rps / floor) * 100).toFixed(0)}%), p99 <= 30 ms: ${r.p99 <= 30 ? 'met' : 'missed'} (${r.p99} ms)`;
  console.log(
    `targets: cache hit ${target(hit)}; poll ${target(poll)}; worker start p50 < 50 ms: ${percentile(latencies, 50) < 50 ? 'met' : 'missed'}`,
  );
} finally {
  await new Promise((r) => bareServer.close(r));
  await worker.stop();
  await server.close();
  await db.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}
