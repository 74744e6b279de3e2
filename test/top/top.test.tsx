/**
 * `render-farm top` against a real database: the ink screen (ink-testing-library) with its
 * keys, live refresh, and the plain `--once` output of the CLI.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { render } from 'ink-testing-library';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { submitRender } from '../../src/jobs/submit.js';
import { farmSnapshot } from '../../src/top/farm-snapshot.js';
import { jobDetail } from '../../src/top/job-detail.js';
import { TopApp } from '../../src/top/ui/top-app.js';
import { useQueueDb } from '../helpers/queue-db.js';
import { markCompleted, markError } from '../helpers/render-states.js';
import { waitFor } from '../helpers/wait-for.js';

const run = promisify(execFile);
const BIN = path.resolve('bin/render-farm');
const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;

describe('render-farm top', () => {
  const t = useQueueDb();
  const ids: Record<'running' | 'waiting' | 'pregen' | 'done' | 'failed', { jobId: string; renderId: string }> =
    {} as never;

  beforeAll(async () => {
    const customer = async (name: string) => (await ensureCustomer(t.db.db, name)).id;
    const submit = async (who: string, width: number, format: 'sprite' | 'video' = 'sprite') => {
      const s = await submitRender(t.db, {
        customerId: await customer(who),
        parts: glass.parts,
        state: null,
        options: { format, width, height: width, profile: 'fast' },
      });
      return { jobId: s.jobId, renderId: s.render.id };
    };
    ids.running = await submit('acme', 264);
    ids.waiting = await submit('acme', 272, 'video');
    ids.pregen = await submit('pregen', 280);
    ids.done = await submit('globex', 288);
    ids.failed = await submit('globex', 296);
    await t.db.db
      .insertInto('workers')
      .values({
        id: 'render-a-4242-abcd',
        hostname: 'render-a',
        pid: 4242,
        concurrency: 1,
        backend: JSON.stringify({ backend: 'egl', glRenderer: 'llvmpipe' }),
      })
      .execute();
    // what a worker's claim writes, 10 s ago, half done; and graphile's lock on its queue job
    await sql`UPDATE renders SET status = 'processing', progress = 0.5, worker_id = 'render-a-4242-abcd', started_at = now() - interval '10 seconds', attempts = 1 WHERE id = ${ids.running.renderId}`.execute(
      t.db.db,
    );
    await sql`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'gw-1' WHERE payload->>'renderId' = ${ids.running.renderId}`.execute(
      t.db.db,
    );
    await markCompleted(t.db, ids.done.renderId);
    await sql`UPDATE renders SET render_ms = 4100 WHERE id = ${ids.done.renderId}`.execute(t.db.db);
    await markError(t.db, ids.failed.renderId, 'the render timed out after 900 s');
    // graphile-worker removes a queue job once its task returns
    await sql`DELETE FROM graphile_worker._private_jobs WHERE payload->>'renderId' IN (${ids.done.renderId}, ${ids.failed.renderId})`.execute(
      t.db.db,
    );
  }, 60_000);

  it('reads workers, queue by kind and customer, running/waiting/recent jobs and error counts', async () => {
    const s = await farmSnapshot(t.db);
    expect(s.workers).toEqual([
      expect.objectContaining({
        host: 'render-a',
        pid: 4242,
        backend: 'egl',
        state: 'rendering',
        jobId: ids.running.jobId,
        progress: 0.5,
      }),
    ]);
    // 0.5 of 72 frames in about 10 s
    expect(s.workers[0]!.fps).toBeGreaterThan(2);
    expect(s.workers[0]!.fps).toBeLessThan(4);
    expect(s.queue.find((q) => q.kind === 'renders')).toEqual({ kind: 'renders', queued: 1, running: 1 });
    expect(s.queue.find((q) => q.kind === 'pregen')).toEqual({ kind: 'pregen', queued: 1, running: 0 });
    expect(s.customers).toEqual(
      expect.arrayContaining([
        { customer: 'acme', queued: 1, processing: 1 },
        { customer: 'pregen', queued: 1, processing: 0 },
      ]),
    );
    expect(s.running.map((j) => j.jobId)).toEqual([ids.running.jobId]);
    expect(s.waiting.map((j) => j.jobId).sort()).toEqual([ids.waiting.jobId, ids.pregen.jobId].sort());
    expect(s.recent.map((j) => j.jobId).sort()).toEqual([ids.done.jobId, ids.failed.jobId].sort());
    expect(s.errors).toMatchObject({ lastHour: 1, lastDay: 1 });
  });

  it('ink screen: live refresh, arrows select, enter shows the detail, q quits', async () => {
    let quit = 0;
    const source = { snapshot: () => farmSnapshot(t.db), detail: (id: string) => jobDetail(t.db, id) };
    const ui = render(<TopApp source={source} intervalMs={200} onQuit={() => quit++} />);
    const frame = (re: RegExp, what: string) =>
      waitFor(what, () => ui.lastFrame() ?? '', {
        until: (f) => re.test(f),
        timeoutMs: 10_000,
        intervalMs: 50,
        show: (f) => `the screen:\n${f}`,
      });
    let f = await frame(/WORKERS/, 'workers');
    expect(f).toMatch(/render-a\s+4242\s+egl\s+rendering\s+[0-9a-f]{8}\s+\[#####-----\]\s+50%/);
    expect(f).toMatch(/QUEUE\s+renders 1 \(\+1 running\)\s+pregen 1\s+thumbnails 0\s+webhooks 0/);
    expect(f).toMatch(/CUSTOMERS\s+.*acme 1q\/1r/);
    expect(f).toMatch(/ERRORS\s+renders failed 1h 1 \/ 24h 1\s+retrying 0\s+webhook deliveries failed 24h 0/);
    expect(f).toMatch(
      new RegExp(`> ${ids.running.jobId.slice(0, 8)}\\s+processing\\s+\\[#####-----\\]\\s+50%\\s+acme`),
    );
    expect(f).toMatch(
      new RegExp(
        `${ids.failed.jobId.slice(0, 8)}\\s+error\\s+failed\\s+globex\\s+sprite 296x296 fast\\s+the render timed`,
      ),
    );
    expect(f).toMatch(new RegExp(`${ids.done.jobId.slice(0, 8)}\\s+completed\\s+took 4s`));
    // the order: running, then waiting, then finished
    const order = [ids.running, ids.waiting, ids.done].map((j) => f.indexOf(j.jobId.slice(0, 8)));
    expect(order.every((v) => v > 0)).toBe(true);
    expect(order[0]!).toBeLessThan(order[1]!);
    expect(order[1]!).toBeLessThan(order[2]!);

    // a worker writes progress: the screen follows within a refresh
    await sql`UPDATE renders SET progress = 0.75 WHERE id = ${ids.running.renderId}`.execute(t.db.db);
    await frame(/\[########--\]\s+75%/, '75% after the refresh');

    ui.stdin.write('\u001B[B'); // down arrow
    // the two queued rows wait equally long and may swap between refreshes: read the selection off the screen
    const moved = await frame(
      new RegExp(`^> (?!${ids.running.jobId.slice(0, 8)})[0-9a-f]{8}\\s`, 'm'),
      'the second row selected',
    );
    const second = /^> ([0-9a-f]{8})\s/m.exec(moved)![1]!;
    ui.stdin.write('\r');
    f = await frame(/JOB [0-9a-f-]{36}\s+\(render/, 'the detail');
    const fullId = [ids.waiting, ids.pregen].find((j) => j.jobId.startsWith(second))!.jobId;
    expect(f).toContain(`JOB ${fullId}`);
    expect(f).toMatch(/render\s+(sprite|video) \d+x\d+ fast scene \w+ frames \d+/);
    expect(f).toMatch(/parts\s+.*PCCase=/);
    ui.stdin.write('\u001B'); // escape closes it
    await frame(/^(?![\s\S]*JOB [0-9a-f-]{36}\s+\(render)/, 'the detail closed');
    // the failed job (row 4): its detail has the whole error the row cuts short
    // rows are read from the screen as it is now (a refresh may have reordered queued rows since
    // the first frame), and each key press waits for its selection before the next
    const failedId = ids.failed.jobId.slice(0, 8);
    for (let presses = 0; presses < 10; presses++) {
      const now = (ui.lastFrame() ?? '').split('\n').filter((l) => /^[> ] [0-9a-f]{8}\s/.test(l));
      const selected = now.findIndex((l) => l.startsWith('>'));
      const target = now.findIndex((l) => l.includes(failedId));
      if (selected === target) break;
      const next = now[selected + (target > selected ? 1 : -1)]!.slice(2, 10);
      ui.stdin.write(target > selected ? '\u001B[B' : '\u001B[A');
      await frame(new RegExp(`> ${next}`), `row ${next} selected`);
    }
    await frame(new RegExp(`> ${failedId}`), 'the failed row selected');
    ui.stdin.write('\r');
    await frame(/error\s+the render timed out after 900 s/, 'the full error in the detail');
    // keys typed faster than the screen renders: up then enter at once open the row above, not
    // the row the last render had selected
    ui.stdin.write('\u001B');
    const closed = await frame(/^(?![\s\S]*JOB [0-9a-f-]{36}\s+\(render)/, 'the detail closed again');
    const rows = closed.split('\n').filter((l) => /^[> ] [0-9a-f]{8}\s/.test(l));
    const above = rows[rows.findIndex((l) => l.startsWith('>')) - 1]!.slice(2, 10);
    ui.stdin.write('\u001B[A');
    ui.stdin.write('\r');
    f = await frame(/JOB [0-9a-f-]{36}\s+\(render/, 'the detail of the row above');
    expect(f).toMatch(new RegExp(`JOB ${above}`));
    ui.stdin.write('q');
    await waitFor('q to quit', () => quit > 0, { timeoutMs: 5_000, intervalMs: 10 });
    expect(quit).toBe(1);
    ui.unmount();
  });

  it('--once prints the same screen as plain text; --json the snapshot', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: t.url,
      RENDER_FARM_DATA_DIR: t.cfg.dataDir,
    };
    const plain = await run('node', [BIN, 'top', '--once'], { env });
    expect(plain.stdout).toMatch(/^render-farm top/);
    expect(plain.stdout).toMatch(/^\s+HOST\s+PID\s+GL\s+STATE\s+JOB\s+PROGRESS\s+FPS\s+BEAT$/m);
    expect(plain.stdout).toMatch(/^\s+JOB\s+STATUS\s+PROGRESS\s+CUSTOMER\s+RENDER\s+DETAIL$/m);
    expect(plain.stdout).not.toMatch(/\u001B\[/); // no terminal escapes
    const json = JSON.parse((await run('node', [BIN, 'top', '--once', '--json'], { env })).stdout);
    expect(json.workers[0]).toMatchObject({ host: 'render-a', state: 'rendering' });
  });
});
