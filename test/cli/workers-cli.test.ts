/**
 * `render-farm workers list|show|drain` against a real `render-farm worker` process (its own
 * Chromium) on a real database: show reports what the heartbeat sends (version, uptime, memory,
 * jobs, last error); drain is asked through the database, and at its next heartbeat the worker
 * stops taking jobs, finishes the render it is on and exits 0 as on SIGTERM: a job submitted
 * after stays queued. Draining a stopped worker exits 1 saying why; an unknown one is a usage error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { submitRender } from '../../src/jobs/submit.js';
import { VERSION } from '../../src/version.js';
import { cliOn } from '../helpers/cli.js';
import { useQueueDb } from '../helpers/queue-db.js';
import { waitFor } from '../helpers/wait-for.js';
import { spawnWorker, type WorkerChild } from '../helpers/worker-process.js';

describe('workers CLI', () => {
  const t = useQueueDb();
  const cli = cliOn(t);
  const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
  let child: WorkerChild;
  let workerId: string;
  let customerId: string;

  const submit = async (options: Record<string, unknown>) =>
    (
      await submitRender(t.db, {
        customerId,
        parts: glass.parts,
        state: null,
        options: { format: 'video', profile: 'fast', ...options },
      })
    ).render.id;
  const render = (id: string) =>
    t.db.db
      .selectFrom('renders')
      .select(['status', 'worker_id', 'attempts', 'error'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const show = async () => {
    const r = await cli('workers', 'show', workerId, '--json');
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as {
      state: string;
      version: string;
      rendererVersion: string;
      uptimeS: number;
      memory: { rss: number } | null;
      jobsDone: number;
      jobsFailed: number;
    };
  };

  beforeAll(async () => {
    customerId = (await ensureCustomer(t.db.db, 'workers-cli-co')).id;
    // chunks off: the drained render is one queue job, finished by this worker
    // a drain timeout far past the 1080p render: on a loaded machine the default 60 s ran out
    // first and the render went back to the queue (the test is about finishing it, not the bound)
    child = await spawnWorker(t.url, t.cfg.dataDir, ['--concurrency', '1', '--drain-timeout', '900'], {
      RENDER_FARM_CHUNK_SECONDS: '0',
    });
    workerId = /worker (\S+) is taking jobs/.exec(child.output())![1]!;
  }, 120_000);

  afterAll(async () => {
    if (child && child.proc.exitCode === null) {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
  }, 60_000);

  it('lists and shows the worker as its heartbeat reports it', async () => {
    const list = await cli('workers', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^WORKER\s+STATE\s+VERSION\s+UPTIME\s+MEMORY\s+DONE\s+FAILED\s+LAST ERROR/);
    expect(list.stdout).toMatch(new RegExp(`^${workerId}\\s+running\\s+${VERSION.replace(/\./g, '\\.')}\\s`, 'm'));
    const w = await show();
    expect(w).toMatchObject({ state: 'running', version: VERSION, jobsDone: 0, jobsFailed: 0 });
    expect(w.rendererVersion).toBeTruthy();
    expect(w.memory!.rss).toBeGreaterThan(10 * 1024 * 1024);
    const text = await cli('workers', 'show', workerId);
    expect(text.stdout).toMatch(/^state\s+running$/m);
    expect(text.stdout).toMatch(/^memory\s+\d+ MiB resident/m);
    expect(text.stdout).toMatch(/^jobs\s+0 done, 0 failed$/m);
  }, 60_000);

  it('drain: stops taking jobs at the next heartbeat, finishes the running render, exits 0', async () => {
    // long enough to still be rendering when the next heartbeat reads the request
    const running = await submit({ width: 1920, height: 1080 });
    await waitFor('the worker to start the render', () => render(running), {
      until: (r) => r.status === 'processing',
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    const drain = await cli('workers', 'drain', workerId);
    expect(drain.code, drain.stderr).toBe(0);
    expect(drain.stdout).toContain(`${workerId}: drain requested`);
    await child.waitForOutput('drain requested through the database', 15_000);
    expect((await show()).state).toBe('draining');
    const after = await submit({ width: 640, height: 360 });
    expect(await child.exited).toBe(0);
    expect(child.output()).toContain('drained on request');
    // the running render finished here, once; the later one was never taken
    expect(await render(running)).toMatchObject({ status: 'completed', worker_id: workerId, attempts: 1 });
    expect(await render(after)).toMatchObject({ status: 'queued', worker_id: null });
    expect(await show()).toMatchObject({ state: 'stopped', jobsDone: 1, jobsFailed: 0 });

    const again = await cli('workers', 'drain', workerId);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not running (stopped)');
    const unknown = await cli('workers', 'drain', 'no-such-worker');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no worker no-such-worker');
  }, 240_000);
});
