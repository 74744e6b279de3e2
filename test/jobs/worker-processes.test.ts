/**
 * Workers as real processes (`render-farm worker`) sharing one Postgres queue: SIGKILL
 * recovery through heartbeats and the sweeper, SIGTERM drain, no job done twice. Each test
 * starts its own workers and kills what is left after it, so any one runs alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { useTestApi, mintSession } from '../helpers/api.js';
import { waitFor } from '../helpers/wait-for.js';

const BIN = path.resolve('bin/render-farm');

interface Child {
  proc: ChildProcess;
  pid: number;
  log: string[];
  exited: Promise<number | null>;
}

/** the sweeper's dead-worker bound for this file's API and workers (default 30 s): a killed worker is waited out sooner */
const DEAD_AFTER_S = 15;

describe('worker processes', () => {
  const api = useTestApi({ workerDeadAfterSeconds: DEAD_AFTER_S }, { timeoutMs: 60_000 });
  let token: string;
  const children: Child[] = [];
  const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;

  const spawnWorker = async (drainSeconds = 60): Promise<Child> => {
    const proc = spawn('node', [BIN, 'worker', '--drain-timeout', String(drainSeconds)], {
      // whole renders (split renders have their own process tests: chunked-processes.test.ts);
      // a worker measuring itself slow on a loaded machine could otherwise split these videos
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: api.t.url,
        RENDER_FARM_DATA_DIR: api.t.cfg.dataDir,
        LOG_LEVEL: 'info',
        RENDER_FARM_CHUNK_SECONDS: '0',
        RENDER_FARM_WORKER_DEAD_AFTER: String(DEAD_AFTER_S),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log: string[] = [];
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    const onData = (d: Buffer) => {
      const text = d.toString();
      log.push(text);
      if (text.includes('is taking jobs')) ready();
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
    const child = { proc, pid: proc.pid!, log, exited };
    children.push(child);
    await Promise.race([isReady, exited.then((c) => Promise.reject(new Error(`worker exited ${c}: ${log.join('')}`)))]);
    return child;
  };
  const submit = (body: unknown) => api.call('POST', '/render-build', { token, body });
  const render = (jobId: string) =>
    api.t.db.db
      .selectFrom('jobs')
      .innerJoin('renders', 'renders.id', 'jobs.render_id')
      .selectAll('renders')
      .where('jobs.id', '=', jobId)
      .executeTakeFirstOrThrow();
  const ownerPid = (workerId: string | null) => Number(workerId?.split('-').at(-2));

  beforeAll(async () => {
    token = await mintSession(api, { scopes: ['render:submit', 'render:status'], ttl_seconds: 300 });
  }, 60_000);
  afterEach(async () => {
    for (const c of children) c.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    children.length = 0;
  });

  it("a SIGKILLed worker's render is finished by another worker", async () => {
    const [a, b] = await Promise.all([spawnWorker(), spawnWorker()]);
    const s = await submit({
      parts: glass.parts,
      format: 'video',
      width: 384,
      height: 384,
      profile: 'fast',
      cameraZoom: 1.21,
    });
    const running = await waitFor(
      'the render to be under way',
      async () => {
        const r = await render(s.json.job_id);
        return r.status === 'processing' && r.progress > 0 ? r : null;
      },
      { timeoutMs: 60_000 },
    );
    const victim = [a, b].find((c) => c.pid === ownerPid(running.worker_id))!;
    const survivor = victim === a ? b : a;
    expect(victim).toBeDefined();
    victim.proc.kill('SIGKILL');
    // the sweeper frees a worker silent for DEAD_AFTER_S; the bound leaves room for a loaded machine
    const done = await waitFor(
      'the render to complete elsewhere',
      async () => {
        const r = await render(s.json.job_id);
        return r.status === 'completed' ? r : null;
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    expect(ownerPid(done.worker_id)).toBe(survivor.pid);
    expect(done.attempts).toBe(2);
    const poll = await api.call('GET', `/render-build/${s.json.job_id}`, { token });
    expect(poll.json.status).toBe('completed');
    expect((await fetch(poll.json.video_url)).status).toBe(200);
    const dead = await api.t.db.db
      .selectFrom('workers')
      .select('stopped_at')
      .where('id', '=', running.worker_id!)
      .executeTakeFirstOrThrow();
    expect(dead.stopped_at).not.toBeNull();
  }, 180_000);

  it('two workers share the queue and no render is done twice', async () => {
    await Promise.all([spawnWorker(), spawnWorker()]);
    const bodies = [1.11, 1.12, 1.13, 1.14].map((z) => ({
      parts: glass.parts,
      format: 'sprite',
      width: 256,
      height: 256,
      profile: 'fast',
      cameraZoom: z,
    }));
    const jobs = await Promise.all(bodies.map((b) => submit(b)));
    const rows = await waitFor(
      'all four renders',
      async () => {
        const rs = await Promise.all(jobs.map((j) => render(j.json.job_id)));
        return rs.every((r) => r.status === 'completed') ? rs : null;
      },
      { timeoutMs: 150_000, intervalMs: 500 },
    );
    for (const r of rows) expect(r.attempts).toBe(1);
    // a worker removes its queue job just after writing the render
    await waitFor(
      'the queue to empty',
      async () => (await api.t.db.pool.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs`)).rows[0].n === 0,
      { timeoutMs: 10_000 },
    );
  }, 180_000);

  it('SIGTERM drains: the running render finishes, then the worker exits 0', async () => {
    const w = await spawnWorker(60);
    const s = await submit({
      parts: glass.parts,
      format: 'video',
      width: 384,
      height: 384,
      profile: 'fast',
      cameraZoom: 1.31,
    });
    await waitFor('the render to start', async () => (await render(s.json.job_id)).status === 'processing', {
      timeoutMs: 60_000,
    });
    w.proc.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    const r = await render(s.json.job_id);
    expect(r.status, w.log.join('')).toBe('completed');
    expect(ownerPid(r.worker_id)).toBe(w.pid);
    expect(w.log.join(''), w.log.join('')).toContain('draining');
  }, 180_000);
});
