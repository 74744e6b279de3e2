/**
 * Farm benchmark (docs/benchmarks.md), in one run: real `serve` (in this process) and real worker
 * processes (`render-farm worker`, each pinned to one core with taskset) on embedded PostgreSQL.
 *
 *   npm run bench:farm [-- --video 1920x1080 --huge 2048x2048 --small 10 --thumbnail-parts 200 --skip thumbnails]
 *
 * 1. One cinematic video (1080p): wall on 1 pinned worker as one task (chunking off, today's
 *    path), split on 1 pinned worker, split on 2 workers pinned to cores 0 and 1: the speed-up.
 * 2. Chunk overhead: CPU-seconds of the worker's whole process tree (node, Chromium, ffmpeg)
 *    for the split vs the one-task render on 1 worker (goal <= 1.10).
 * 3. Fairness: 10 small sprites of customer B submitted while customer A's huge cinematic video
 *    (split) keeps both workers busy, vs the same 10 on an idle farm: B's p50/p95
 *    submit-to-completed (goal: p95 <= 2x idle).
 * 4. Thumbnails/s of the batched thumbnail path (bench/thumbnails.ts) for a sample of OpenDB parts.
 *
 * Times swing 2-3x with the machine's load: read the ratios, which come from one run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApiKey } from '../src/auth/api-keys.js';
import { DEMO_BUILDS } from '../src/catalog/demo-catalog.js';
import { startBenchServer } from './bench-server.js';
import { treeCpuSeconds } from './control-plane/pg-stats.js';

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : dflt;
};
const size = (s: string) => {
  const [w, h] = s.split('x').map(Number);
  return { width: w!, height: h! };
};
const VIDEO = size(flag('video', '1920x1080'));
const HUGE = size(flag('huge', '2048x2048'));
const SMALL_N = Number(flag('small', '10'));
const THUMB_PARTS = Number(flag('thumbnail-parts', '200'));
const SKIP = new Set(flag('skip', '').split(',').filter(Boolean));
const BIN = path.resolve('bin/render-farm');
const CORES = os.cpus().length;

const { dataDir, cfg, db, server } = await startBenchServer('farm', 10, {
  // the bench's own huge job is over the default per-customer cap on purpose
  maxCustomerInFlightSeconds: 0,
});
const keyA = (await createApiKey(db.db, 'customer-a', 'prod')).key;
const keyB = (await createApiKey(db.db, 'customer-b', 'prod')).key;
const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;

interface Worker {
  proc: ChildProcess;
  pid: number;
  exited: Promise<unknown>;
}

/** A worker process pinned to `core` (taskset), chunk target `chunkSeconds` (0: never split). */
async function startWorker(core: number, chunkSeconds: number): Promise<Worker> {
  const pin = await hasTaskset();
  const cmd = pin ? 'taskset' : 'node';
  const args = pin ? ['-c', String(core % CORES), 'node', BIN, 'worker'] : [BIN, 'worker'];
  const proc = spawn(cmd, args, {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: db.connectionString,
      RENDER_FARM_DATA_DIR: dataDir,
      RENDER_FARM_CHUNK_SECONDS: String(chunkSeconds),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise((r) => proc.on('exit', r));
  await new Promise<void>((resolve, reject) => {
    const on = (d: Buffer) => {
      out += d.toString();
      if (out.includes('is taking jobs')) resolve();
    };
    proc.stdout!.on('data', on);
    proc.stderr!.on('data', on);
    void exited.then(() => reject(new Error(`worker exited before taking jobs:\n${out.slice(-2000)}`)));
  });
  return { proc, pid: proc.pid!, exited };
}

async function stopWorkers(ws: Worker[]): Promise<void> {
  for (const w of ws) w.proc.kill('SIGTERM');
  await Promise.all(ws.map((w) => w.exited));
}

let tasksetChecked: boolean | null = null;
async function hasTaskset(): Promise<boolean> {
  if (tasksetChecked === null) {
    tasksetChecked = await new Promise<boolean>((r) => {
      const p = spawn('taskset', ['-c', '0', 'true']);
      p.on('error', () => r(false));
      p.on('exit', (c) => r(c === 0));
    });
    if (!tasksetChecked) console.log('note: no taskset here; workers are not pinned to cores');
  }
  return tasksetChecked;
}

async function call(key: string, method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(server.url + url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Submits and waits; returns wall seconds (database clock: created_at -> finished_at) and the render row. */
async function renderAndWait(
  key: string,
  body: object,
  timeoutS = 900,
): Promise<{ wallS: number; jobId: string; chunks: number }> {
  const { job_id } = await call(key, 'POST', '/render-build', body);
  return waitJob(key, job_id, timeoutS);
}

async function waitJob(
  key: string,
  jobId: string,
  timeoutS = 900,
): Promise<{ wallS: number; jobId: string; chunks: number }> {
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const j = await call(key, 'GET', `/render-build/${jobId}`);
    if (j.status === 'error') throw new Error(`job ${jobId} failed: ${j.error}`);
    if (j.status === 'completed') {
      const { rows } = await db.pool.query(
        `SELECT extract(epoch FROM r.finished_at - j.created_at)::float AS s, r.chunk_total FROM jobs j JOIN renders r ON r.id = j.render_id WHERE j.id = $1`,
        [jobId],
      );
      return { wallS: rows[0].s, jobId, chunks: rows[0].chunk_total ?? 1 };
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not finish in ${timeoutS} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
let zoom = 1.0;
/** every request differs a little (camera zoom), so none is a cache hit of another */
const fresh = (o: object) => ({ parts: glass.parts, ...o, cameraZoom: Math.round((zoom += 0.01) * 100) / 100 });

const rows: string[][] = [];
try {
  // warm: each worker measures its own speed on its first render; one warm-up so the split
  // render is sized from a measured figure, as on a running farm
  if (!SKIP.has('video')) {
    const video = { format: 'video', ...VIDEO, profile: 'cinematic' };
    // 1 worker, one task (chunking off)
    let ws = [await startWorker(0, 0)];
    await renderAndWait(keyA, fresh({ format: 'sprite', width: 512, height: 512, profile: 'cinematic' }));
    let cpu0 = await treeCpuSeconds(ws[0]!.pid);
    const whole = await renderAndWait(keyA, fresh(video));
    const wholeCpu = (await treeCpuSeconds(ws[0]!.pid)) - cpu0;
    await stopWorkers(ws);
    // 1 worker, split
    ws = [await startWorker(0, 10)];
    await renderAndWait(keyA, fresh({ format: 'sprite', width: 512, height: 512, profile: 'cinematic' }));
    cpu0 = await treeCpuSeconds(ws[0]!.pid);
    const split1 = await renderAndWait(keyA, fresh(video));
    const splitCpu = (await treeCpuSeconds(ws[0]!.pid)) - cpu0;
    await stopWorkers(ws);
    // 2 workers, split
    ws = [await startWorker(0, 10), await startWorker(1, 10)];
    await Promise.all([
      renderAndWait(keyA, fresh({ format: 'sprite', width: 512, height: 512, profile: 'cinematic' })),
      renderAndWait(keyA, fresh({ format: 'sprite', width: 512, height: 512, profile: 'cinematic' })),
    ]);
    const split2 = await renderAndWait(keyA, fresh(video));
    await stopWorkers(ws);
    const name = `video ${VIDEO.width}x${VIDEO.height} cinematic`;
    rows.push([name, '1 worker, one task (today)', `${f1(whole.wallS)} s`, '1.00x', `CPU ${f1(wholeCpu)} s`]);
    rows.push([
      name,
      `1 worker, ${split1.chunks} chunks`,
      `${f1(split1.wallS)} s`,
      `${f2(whole.wallS / split1.wallS)}x`,
      `CPU ${f1(splitCpu)} s = ${f2(splitCpu / wholeCpu)}x (goal <= 1.10)`,
    ]);
    rows.push([
      name,
      `2 workers, ${split2.chunks} chunks`,
      `${f1(split2.wallS)} s`,
      `${f2(whole.wallS / split2.wallS)}x`,
      CORES < 2 ? 'one core only' : '',
    ]);
  }

  if (!SKIP.has('fairness')) {
    const small = { format: 'sprite', width: 256, height: 256, profile: 'fast' };
    const ws = [await startWorker(0, 10), await startWorker(1, 10)];
    await Promise.all([renderAndWait(keyB, fresh(small)), renderAndWait(keyB, fresh(small))]);
    const batch = async () => {
      const jobs = await Promise.all(
        Array.from({ length: SMALL_N }, () => call(keyB, 'POST', '/render-build', fresh(small))),
      );
      const walls = (await Promise.all(jobs.map((j) => waitJob(keyB, j.job_id)))).map((r) => r.wallS);
      // where the time went: waiting for a worker vs rendering
      const { rows: split } = await db.pool.query(
        `SELECT extract(epoch FROM r.started_at - j.created_at)::float AS wait, extract(epoch FROM r.finished_at - r.started_at)::float AS run
         FROM jobs j JOIN renders r ON r.id = j.render_id WHERE j.id = ANY($1::uuid[])`,
        [jobs.map((j) => j.job_id)],
      );
      const waits = split.map((r) => r.wait as number);
      const runs = split.map((r) => r.run as number);
      console.log(
        `  B batch: wait for a worker p50 ${f1(pct(waits, 50))} s p95 ${f1(pct(waits, 95))} s; render p50 ${f1(pct(runs, 50))} s p95 ${f1(pct(runs, 95))} s`,
      );
      return walls;
    };
    const idle = await batch();
    const huge = await call(keyA, 'POST', '/render-build', fresh({ format: 'video', ...HUGE, profile: 'cinematic' }));
    // B arrives while A's chunks hold both workers
    for (let i = 0; i < 600; i++) {
      const { rows: r } = await db.pool.query(
        `SELECT count(*)::int AS n FROM render_chunks c JOIN jobs j ON j.render_id = c.render_id WHERE j.id = $1 AND c.status = 'processing'`,
        [huge.job_id],
      );
      if (r[0].n >= Math.min(2, CORES)) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    const busy = await batch();
    const hugeDone = await waitJob(keyA, huge.job_id, 1800);
    await stopWorkers(ws);
    rows.push([
      `fairness: ${SMALL_N} sprites 256 fast (B)`,
      'idle farm (2 workers)',
      `p50 ${f1(pct(idle, 50))} s`,
      `p95 ${f1(pct(idle, 95))} s`,
      '',
    ]);
    rows.push([
      `fairness: ${SMALL_N} sprites 256 fast (B)`,
      `during A's ${HUGE.width}x${HUGE.height} cinematic video (${hugeDone.chunks} chunks, ${f1(hugeDone.wallS)} s)`,
      `p50 ${f1(pct(busy, 50))} s`,
      `p95 ${f1(pct(busy, 95))} s`,
      `p95 ${f2(pct(busy, 95) / pct(idle, 95))}x idle (goal <= 2)`,
    ]);
  }

  if (!SKIP.has('memory')) {
    const m = await memoryAtLargestFrame();
    rows.push([
      `memory: largest admitted frame ${m.width}x${m.height} cinematic`,
      `${m.frames} frames, one worker's Chromium`,
      `peak ${Math.round(m.peakMiB)} MiB`,
      `idle ${Math.round(m.idleMiB)} MiB`,
      `PSS of the browser's processes; ${f1(m.secondsPerFrame)} s/frame`,
    ]);
  }

  if (!SKIP.has('thumbnails')) {
    const t = await thumbnailRate(THUMB_PARTS);
    rows.push([
      `thumbnails, ${t.parts} OpenDB parts`,
      'batched, 1 process',
      `${f1(t.perSecond)} /s`,
      `${f1(t.seconds)} s`,
      `29,454 parts: ~${f1(29454 / t.perSecond / 60)} min`,
    ]);
  }
} finally {
  await server.close();
  await db.close();
  await fs.rm(dataDir, { recursive: true, force: true }).catch(() => {});
}

const header = ['case', 'setup', 'result', 'ratio', 'note'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (r: string[]) => r.map((c, i) => (c ?? '').padEnd(widths[i]!)).join(' | ');
console.log(
  `\nbench:farm on ${CORES} cores (${os.cpus()[0]?.model ?? '?'}), load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const r of rows) console.log(line(r));

/**
 * Peak memory (PSS, so pages shared between Chromium's processes count once) of a warm engine's
 * browser while it renders a few frames of the largest frame admission lets through
 * (RENDER_FARM_MAX_FRAME_MEGAPIXELS, 4096x4096), cinematic: the bound a chunk of any admitted
 * render stays within (a chunk renders frames of the request's size, one at a time).
 */
async function memoryAtLargestFrame(): Promise<{
  width: number;
  height: number;
  frames: number;
  peakMiB: number;
  idleMiB: number;
  secondsPerFrame: number;
}> {
  const { createRenderEngine } = await import('../src/render/engine.js');
  const { resolveRenderOptions } = await import('../src/model/render-options.js');
  const { resolveBuildParts } = await import('../src/catalog/resolve-build.js');
  const side = Math.floor(Math.sqrt(cfg.maxFrameMegapixels * 1e6) / 16) * 16;
  const engine = await createRenderEngine(cfg);
  const pss = async () => {
    let kb = 0;
    for (const d of await fs.readdir('/proc')) {
      if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
      const stat = await fs.readFile(`/proc/${d}/stat`, 'utf8').catch(() => '');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!/chrom/i.test(comm)) continue;
      // only this bench's browser: a descendant of this process
      let p = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      for (let hops = 0; p > 1 && p !== process.pid && hops < 32; hops++) {
        const s2 = await fs.readFile(`/proc/${p}/stat`, 'utf8').catch(() => '');
        p = Number(s2.slice(s2.lastIndexOf(')') + 2).split(' ')[1]);
      }
      if (p !== process.pid) continue;
      const roll = await fs.readFile(`/proc/${d}/smaps_rollup`, 'utf8').catch(() => '');
      kb += Number(/^Pss:\s+(\d+)/m.exec(roll)?.[1] ?? 0);
    }
    return kb / 1024;
  };
  try {
    await engine.info();
    const idleMiB = await pss();
    let peakMiB = idleMiB;
    const sampler = setInterval(() => void pss().then((m) => (peakMiB = Math.max(peakMiB, m))), 250);
    const options = resolveRenderOptions({ format: 'video', width: side, height: side, profile: 'cinematic' });
    const resolved = await resolveBuildParts(db, glass.parts);
    const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-bench-mem-'));
    const frames = 3;
    const started = performance.now();
    try {
      await engine.render({
        build: { parts: resolved.parts, state: null },
        options,
        outDir,
        frameLimit: frames,
        outputs: { video: true },
      });
    } finally {
      clearInterval(sampler);
      await fs.rm(outDir, { recursive: true, force: true });
    }
    peakMiB = Math.max(peakMiB, await pss());
    return {
      width: side,
      height: side,
      frames,
      peakMiB,
      idleMiB,
      secondsPerFrame: (performance.now() - started) / 1000 / frames,
    };
  } finally {
    await engine.close();
  }
}

/** Thumbnails/s of the batched path (real OpenDB parts), measured by bench/thumbnails.ts in its own process and database. */
async function thumbnailRate(parts: number): Promise<{ parts: number; seconds: number; perSecond: number }> {
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn(
      process.execPath,
      ['--import', 'tsx', path.resolve('bench/thumbnails.ts'), '--parts', String(parts), '--single', '0', '--json'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let s = '';
    p.stdout.on('data', (d: Buffer) => (s += d.toString()));
    p.on('exit', (c) => (c === 0 ? resolve(s) : reject(new Error(`bench/thumbnails.ts exited ${c}`))));
  });
  const { batch } = JSON.parse(out) as { batch: { parts: number; seconds: number; perSecond: number } };
  return batch;
}
