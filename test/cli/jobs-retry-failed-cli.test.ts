/**
 * `render-farm jobs retry --failed` as a child process on a real database, with renders put in
 * each end state as a worker leaves them (status, error, the queue job gone): it asks on a
 * terminal, refuses without --yes elsewhere (exit 2, nothing changed), lists with --dry-run, and
 * with --yes retries each failed render once (two customers' jobs share one), enqueuing the same
 * render task a fresh submission enqueues; cancelled and expired renders are left alone.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { renderJobKey } from '../../src/jobs/queue/task-map.js';
import { EXPIRED_MESSAGE } from '../../src/jobs/render-expiry.js';
import { CANCELLED_MESSAGE } from '../../src/jobs/render-lifecycle.js';
import { submitRender } from '../../src/jobs/submit.js';
import { cliOn } from '../helpers/cli.js';
import { useQueueDb } from '../helpers/queue-db.js';

describe('jobs retry --failed', () => {
  const t = useQueueDb();
  const cli = cliOn(t);
  const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
  let a: string;
  let b: string;
  let width = 256;
  const made: Record<string, { jobId: string; renderId: string }> = {};

  const submit = async (customerId: string, w: number) => {
    const s = await submitRender(t.db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { format: 'sprite', width: w, height: 256, profile: 'fast' },
    });
    return { jobId: s.jobId, renderId: s.render.id };
  };
  /** a render ended as a worker leaves it: its state, and its queue job gone */
  const end = async (renderId: string, error: string, expired = false) => {
    await sql`UPDATE renders SET status = 'error', error = ${error}, finished_at = now(), attempts = 1, expired_at = ${expired ? sql`now()` : null} WHERE id = ${renderId}`.execute(
      t.db.db,
    );
    await t.db.pool.query('DELETE FROM graphile_worker._private_jobs WHERE key = $1', [renderJobKey(renderId)]);
  };
  const state = async (renderId: string) =>
    (
      await t.db.db
        .selectFrom('renders')
        .select(['status', 'error'])
        .where('id', '=', renderId)
        .executeTakeFirstOrThrow()
    ).status;
  const queueJob = async (renderId: string) =>
    (
      await t.db.pool.query(
        `SELECT t.identifier AS task, j.payload, j.attempts, j.max_attempts, j.locked_by, j.run_at <= now() AS due
           FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE j.key = $1`,
        [renderJobKey(renderId)],
      )
    ).rows;

  beforeAll(async () => {
    a = (await ensureCustomer(t.db.db, 'retry-a')).id;
    b = (await ensureCustomer(t.db.db, 'retry-b')).id;
    made.failed = await submit(a, (width += 8));
    made.shared = await submit(b, width); // the same request: b's job shares the failed render
    made.failed2 = await submit(a, (width += 8));
    made.cancelled = await submit(a, (width += 8));
    made.expired = await submit(a, (width += 8));
    made.queued = await submit(a, (width += 8));
    expect(made.shared.renderId).toBe(made.failed.renderId);
    await end(made.failed.renderId, 'the scene could not be built');
    await end(made.failed2.renderId, 'ffmpeg exited with code 1');
    await end(made.cancelled.renderId, CANCELLED_MESSAGE);
    await end(made.expired.renderId, EXPIRED_MESSAGE, true);
  }, 60_000);

  it('refuses without --yes off a terminal (exit 2), saying how many; changes nothing', async () => {
    const r = await cli('jobs', 'retry', '--failed');
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toContain('2 failed renders (3 jobs) would be retried: pass --yes');
    expect(await state(made.failed.renderId)).toBe('error');
    expect(await queueJob(made.failed.renderId)).toEqual([]);
  });

  it('lists the failed renders with --dry-run, not the cancelled or expired ones', async () => {
    const r = await cli('jobs', 'retry', '--failed', '--dry-run', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      renders: { renderId: string; jobs: number }[];
      total: { renders: number; jobs: number };
    };
    expect(out.total).toEqual({ renders: 2, jobs: 3 });
    expect(out.renders.map((f) => f.renderId).sort()).toEqual([made.failed.renderId, made.failed2.renderId].sort());
    expect(out.renders.find((f) => f.renderId === made.failed.renderId)?.jobs).toBe(2);
  });

  it('asks on a terminal; "n" retries nothing', async () => {
    const bin = path.resolve('bin/render-farm');
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: t.url,
      RENDER_FARM_DATA_DIR: t.cfg.dataDir,
    };
    // script(1) gives the command a terminal; the answer comes on its stdin
    const child = execFile(
      'script',
      ['-qec', `node ${bin} jobs retry --failed`, '/dev/null'],
      { env, timeout: 60_000 },
      () => {},
    );
    let seen = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const asked = new Promise<void>((resolve) =>
      child.stdout!.on('data', (d: Buffer) => {
        seen += d.toString();
        if (seen.includes('[y/N]')) resolve();
      }),
    );
    // a command that exits without asking fails here, not at the test's time-out
    await Promise.race([asked, exited]);
    expect(seen).toContain('Retry 2 failed renders (3 jobs)? [y/N]');
    child.stdin!.write('n\n');
    expect(await exited).toBe(1);
    expect(seen).toContain('nothing retried');
    expect(await state(made.failed.renderId)).toBe('error');
  });

  it('with --yes retries each failed render once, enqueued as a submission enqueues it; leaves cancelled and expired alone', async () => {
    const r = await cli('jobs', 'retry', '--failed', '--yes');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('retried 2 failed renders (3 jobs)');
    const queuedLines = r.stdout.split('\n').filter((l) => l.endsWith(': queued'));
    expect(queuedLines).toHaveLength(2);
    for (const k of ['failed', 'failed2']) {
      expect(await state(made[k]!.renderId)).toBe('queued');
      // the same queue job a fresh submission made for the queued render
      const [fresh] = await queueJob(made.queued.renderId);
      expect(await queueJob(made[k]!.renderId)).toEqual([{ ...fresh, payload: { renderId: made[k]!.renderId } }]);
    }
    expect(await state(made.cancelled.renderId)).toBe('error');
    expect(await state(made.expired.renderId)).toBe('error');
    expect(await queueJob(made.cancelled.renderId)).toEqual([]);

    const again = await cli('jobs', 'retry', '--failed', '--yes');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('no failed renders to retry\n');
  });

  it('still takes a job id; --failed with one, or neither, is a usage error', async () => {
    expect((await cli('jobs', 'retry')).code).toBe(2);
    expect((await cli('jobs', 'retry', '--failed', made.queued.jobId)).code).toBe(2);
    expect((await cli('jobs', 'retry', '--yes', made.queued.jobId)).code).toBe(2);
    const one = await cli('jobs', 'retry', made.queued.jobId);
    expect(one.code).toBe(1);
    expect(one.stderr).toMatch(/already queued/);
  });
});
