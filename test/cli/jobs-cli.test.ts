/**
 * `render-farm jobs` as a child process, on jobs put in each state with SQL: retry works or
 * says why not (exit 1), and frees a render stuck on a worker that is gone; list shows workers;
 * show prints a summary (--json the record); jobs are named by a unique prefix of their ID.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { submitRender } from '../../src/jobs/submit.js';
import { CATEGORIES } from '../../src/model/part.js';
import { renderArtifactKey } from '../../src/storage/artifact-key.js';
import { cliOn } from '../helpers/cli.js';
import { useQueueDb } from '../helpers/queue-db.js';

const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;

/**
 * A maker of new jobs on t whose render is queued with its queue job, as a submission leaves it;
 * each a camera zoom past the last from `zoom` on, so a render of its own.
 */
const newJobsOn = (t: { db: Parameters<typeof submitRender>[0] }, customer: () => string, zoom: number) => async () => {
  zoom += 0.01;
  const s = await submitRender(t.db, {
    customerId: customer(),
    parts: glass.parts,
    state: null,
    options: { format: 'sprite', width: 256, height: 256, profile: 'fast', cameraZoom: zoom },
  });
  return { jobId: s.jobId, renderId: s.render.id };
};

describe('jobs CLI', () => {
  const t = useQueueDb();
  let customerId: string;

  const cli = cliOn(t);
  const newJob = newJobsOn(t, () => customerId, 1.0);
  const addWorker = (id: string, silentS: number, stopped: boolean, graphileIds: string[]) =>
    sql`INSERT INTO workers (id, hostname, pid, concurrency, graphile_ids, started_at, last_seen, stopped_at)
        VALUES (${id}, 'host-a', 4242, 1, ${sql.val(graphileIds)}::text[], now() - interval '2 hours',
                now() - make_interval(secs => ${silentS}), ${stopped ? sql`now() - make_interval(secs => ${silentS - 5})` : null})`.execute(
      t.db.db,
    );
  /** what a worker's claim leaves: render processing on it, queue job locked by its graphile id */
  const claim = async (renderId: string, workerId: string, graphileId: string) => {
    await sql`UPDATE renders SET status = 'processing', worker_id = ${workerId}, locked_by = ${graphileId}, attempts = 1, progress = 0.4 WHERE id = ${renderId}`.execute(
      t.db.db,
    );
    await sql`UPDATE graphile_worker._private_jobs SET locked_by = ${graphileId}, locked_at = now() - interval '1 hour', attempts = 1 WHERE key = ${`render:${renderId}`}`.execute(
      t.db.db,
    );
  };
  const queueJobs = async (renderId: string) =>
    (
      await sql<{
        locked_by: string | null;
      }>`SELECT locked_by FROM graphile_worker.jobs WHERE key = ${`render:${renderId}`}`.execute(t.db.db)
    ).rows;
  const status = async (renderId: string) =>
    (await t.db.db.selectFrom('renders').select('status').where('id', '=', renderId).executeTakeFirstOrThrow()).status;

  beforeAll(async () => {
    customerId = (await ensureCustomer(t.db.db, 'jobs-cli-co')).id;
  }, 60_000);

  it('retry frees a render stuck on a worker that is gone (swept long ago): it is queued once, unlocked', async () => {
    const { jobId, renderId } = await newJob();
    await addWorker('gone-worker', 3_600, true, ['gw-gone']);
    await claim(renderId, 'gone-worker', 'gw-gone');
    const r = await cli('jobs', 'retry', jobId);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`${jobId}: queued`);
    expect(await status(renderId)).toBe('queued');
    expect(await queueJobs(renderId)).toEqual([{ locked_by: null }]);
  });

  it('retry refuses, saying why, a render a live worker is rendering (also with --force)', async () => {
    const { jobId, renderId } = await newJob();
    await addWorker('busy-worker', 0, false, ['gw-busy']);
    await claim(renderId, 'busy-worker', 'gw-busy');
    for (const args of [[], ['--force']]) {
      const r = await cli('jobs', 'retry', jobId, ...args);
      expect(r.code, r.stdout).toBe(1);
      expect(r.stderr).toContain('busy-worker');
      expect(r.stderr).toMatch(/being rendered/);
    }
    expect(await status(renderId)).toBe('processing');
    expect(await queueJobs(renderId)).toEqual([{ locked_by: 'gw-busy' }]);
  });

  it('retry refuses a queued job and a completed one without --force, and re-queues a failed one', async () => {
    const queued = await newJob();
    const q = await cli('jobs', 'retry', queued.jobId);
    expect(q.code, q.stdout).toBe(1);
    expect(q.stderr).toMatch(/already queued/);
    expect(await queueJobs(queued.renderId)).toHaveLength(1);

    const completed = await newJob();
    await sql`UPDATE renders SET status = 'completed' WHERE id = ${completed.renderId}`.execute(t.db.db);
    await sql`DELETE FROM graphile_worker._private_jobs WHERE key = ${`render:${completed.renderId}`}`.execute(t.db.db);
    const c = await cli('jobs', 'retry', completed.jobId);
    expect(c.code, c.stdout).toBe(1);
    expect(c.stderr).toContain('--force');
    expect(await status(completed.renderId)).toBe('completed');
    const forced = await cli('jobs', 'retry', completed.jobId, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(await status(completed.renderId)).toBe('queued');
    expect(await queueJobs(completed.renderId)).toHaveLength(1);

    const failed = await newJob();
    await sql`UPDATE renders SET status = 'error', error = 'boom' WHERE id = ${failed.renderId}`.execute(t.db.db);
    await sql`DELETE FROM graphile_worker._private_jobs WHERE key = ${`render:${failed.renderId}`}`.execute(t.db.db);
    const f = await cli('jobs', 'retry', failed.jobId);
    expect(f.code, f.stderr).toBe(0);
    expect(f.stdout.trim()).toBe(`${failed.jobId}: queued`);
    expect(await queueJobs(failed.renderId)).toHaveLength(1);
  });

  it('list shows the worker of each job, and flags a processing job whose worker is gone', async () => {
    const onLive = await newJob();
    await addWorker('list-worker', 0, false, ['gw-list']);
    await claim(onLive.renderId, 'list-worker', 'gw-list');
    const onGone = await newJob();
    await addWorker('list-gone-worker', 3_600, true, ['gw-list-gone']);
    await claim(onGone.renderId, 'list-gone-worker', 'gw-list-gone');
    const waiting = await newJob();
    const r = await cli('jobs', 'list', '--limit', '100');
    expect(r.code, r.stderr).toBe(0);
    const line = (jobId: string) => r.stdout.split('\n').find((l) => l.startsWith(jobId)) ?? '';
    expect(line(onLive.jobId)).toMatch(/processing 40%.*\slist-worker \(host-a\)/);
    expect(line(onLive.jobId)).not.toContain('gone');
    expect(line(onGone.jobId)).toMatch(/\slist-gone-worker \(host-a\) gone/);
    expect(line(waiting.jobId)).toMatch(/queued\s.*\s-\s*$/);
    const json = JSON.parse((await cli('jobs', 'list', '--json', '--limit', '100')).stdout) as {
      jobId: string;
      worker: unknown;
    }[];
    expect(json.find((j) => j.jobId === onLive.jobId)?.worker).toEqual({
      id: 'list-worker',
      hostname: 'host-a',
      alive: true,
    });
    expect(json.find((j) => j.jobId === waiting.jobId)?.worker).toBeNull();
  });

  // docs/reference/cli.md, jobs show: a screenful for people, the whole record with --json
  it('show prints a readable summary (state, build, what, who, ISO UTC times, URLs) rather than the raw record', async () => {
    const { jobId, renderId } = await newJob();
    const key = (f: string) => renderArtifactKey(`show${renderId.replace(/-/g, '')}`, f);
    await addWorker('show-worker', 0, false, ['gw-show']);
    await sql`UPDATE renders SET status = 'completed', progress = 1, attempts = 1, worker_id = 'show-worker', backend = 'egl', render_ms = 12345, frames_per_second = 5.8,
                artifacts = ${JSON.stringify({ sprite: key('sprite.webp'), screenshot: key('hero.webp') })}::jsonb,
                started_at = '2026-01-02T03:04:05.678Z', finished_at = '2026-01-02T03:04:18.001Z' WHERE id = ${renderId}`.execute(
      t.db.db,
    );
    const r = await cli('jobs', 'show', jobId);
    expect(r.code, r.stderr).toBe(0);
    expect(() => JSON.parse(r.stdout)).toThrow();
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThan(20);
    const field = (label: string) => lines.find((l) => l.startsWith(`${label} `))?.slice(11);
    expect(field('job')).toBe(jobId);
    expect(field('status')).toBe('completed, attempt 1');
    expect(field('build')).toBe(
      CATEGORIES.filter((c) => glass.parts[c])
        .map((c) => `${c}=${[...glass.parts[c]!].sort().join(',')}`)
        .join(' '),
    );
    expect(field('render')).toMatch(/^sprite 256x256, profile fast, scene \w+, 72 frames \(12x6 sheet\)$/);
    expect(field('customer')).toBe('jobs-cli-co');
    expect(field('worker')).toBe('host-a:4242 (egl)');
    expect(field('created')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(field('started')).toBe('2026-01-02T03:04:05Z');
    expect(field('finished')).toBe('2026-01-02T03:04:18Z (took 12.3 s, 5.8 frames/s)');
    expect(field('sprite')).toMatch(new RegExp(`^http://\\S+/artifacts/${key('sprite.webp')}$`));
    expect(field('screenshot')).toMatch(new RegExp(`/artifacts/${key('hero.webp')}$`));
    expect(field('error')).toBeUndefined();

    // --json: the whole record, as before
    const json = await cli('jobs', 'show', jobId, '--json');
    expect(json.code, json.stderr).toBe(0);
    const record = JSON.parse(json.stdout);
    expect(record).toMatchObject({
      jobId,
      customerId,
      render: {
        id: renderId,
        status: 'completed',
        worker_id: 'show-worker',
        request: { options: { format: 'sprite' } },
      },
    });
  });

  it('show of a failed split render: the error, and a table of its chunks', async () => {
    const { jobId, renderId } = await newJob();
    const plan = randomUUID();
    await addWorker('chunk-worker', 0, false, ['gw-chunk']);
    await sql`UPDATE renders SET status = 'error', error = 'chunk 1 failed: boom', chunk_plan = ${plan}, chunk_total = 2, chunks_done = 1 WHERE id = ${renderId}`.execute(
      t.db.db,
    );
    await sql`INSERT INTO render_chunks (render_id, plan, idx, start_frame, end_frame, status, attempts, worker_id, render_ms, frames_done, error)
              VALUES (${renderId}, ${plan}, 0, 0, 36, 'done', 1, 'chunk-worker', 3100, 36, NULL),
                     (${renderId}, ${plan}, 1, 36, 72, 'error', 3, 'chunk-worker', NULL, 10, 'boom')`.execute(t.db.db);
    const r = await cli('jobs', 'show', jobId.slice(0, 8));
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain('status     error');
    expect(lines).toContain('error      chunk 1 failed: boom');
    expect(lines).toContain('chunks     2, 1 done');
    const table = lines.slice(lines.indexOf('chunks     2, 1 done') + 1);
    expect(table[0]).toMatch(/^ {2}CHUNK\s+FRAMES\s+STATUS\s+WORKER\s+SECONDS\s+ATTEMPTS\s+ERROR$/);
    expect(table[1]).toMatch(/^ {2}0\s+0-35\s+done\s+chunk-worker \(host-a\)\s+3\.1\s+1$/);
    expect(table[2]).toMatch(/^ {2}1\s+36-71\s+error\s+chunk-worker \(host-a\)\s+-\s+3\s+boom$/);
    const json = JSON.parse((await cli('jobs', 'show', jobId, '--json')).stdout);
    expect(json.chunks.map((c: { frames: string }) => c.frames)).toEqual(['0-35', '36-71']);
  });
});

/** Jobs named by a prefix of their ID, as `top` shows them (docs/reference/cli.md, jobs). */
describe('jobs CLI: job ID prefixes', () => {
  const t = useQueueDb();
  const cli = cliOn(t);
  let customerId: string;
  const newJob = newJobsOn(t, () => customerId, 2.0);
  /** two jobs of one render whose IDs share their first 12 hex digits */
  const twins = ['abcdef01-2345-4000-8000-000000000001', 'abcdef01-2345-4000-8000-000000000002'];

  beforeAll(async () => {
    customerId = (await ensureCustomer(t.db.db, 'jobs-prefix-co')).id;
    const { renderId } = await newJob();
    // one job per customer and render: two customers sharing the render, as a reuse across customers does
    for (const [i, id] of twins.entries()) {
      const twin = (await ensureCustomer(t.db.db, `twin-co-${i}`)).id;
      await sql`INSERT INTO jobs (id, customer_id, render_id) VALUES (${id}::uuid, ${twin}, ${renderId})`.execute(
        t.db.db,
      );
    }
  }, 60_000);

  it('show, cancel and retry take the 8 digits top shows (or any unique prefix of 6+, hyphens or not)', async () => {
    const { jobId, renderId } = await newJob();
    for (const prefix of [
      jobId.slice(0, 8),
      jobId.slice(0, 6).toUpperCase(),
      jobId.slice(0, 13),
      jobId.replace(/-/g, '').slice(0, 20),
    ]) {
      const r = await cli('jobs', 'show', prefix);
      expect(r.code, `${prefix}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toContain(jobId);
    }
    const cancelled = await cli('jobs', 'cancel', jobId.slice(0, 8));
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout.trim()).toBe(`${jobId}: error (cancelled)`);
    const retried = await cli('jobs', 'retry', jobId.slice(0, 8));
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout.trim()).toBe(`${jobId}: queued`);
    expect(
      (await t.db.db.selectFrom('renders').select('status').where('id', '=', renderId).executeTakeFirstOrThrow())
        .status,
    ).toBe('queued');
  });

  it('watch follows a job named by its prefix; webhooks deliveries --job takes one too', async () => {
    const { jobId, renderId } = await newJob();
    await sql`UPDATE renders SET status = 'error', error = 'boom', finished_at = now() WHERE id = ${renderId}`.execute(
      t.db.db,
    );
    const w = await cli('jobs', 'watch', jobId.slice(0, 8), '--json');
    expect(w.code, w.stderr).toBe(1);
    expect(w.stderr.trim()).toBe('render-farm: the job failed');
    expect(w.stdout).toContain(jobId);
    const api = await cli('jobs', 'watch', jobId.slice(0, 8), '--api-url', 'http://127.0.0.1:9', '--token', 'x');
    expect([api.code, api.stderr.trim()]).toEqual([
      2,
      `render-farm: --api-url takes the full job ID, got "${jobId.slice(0, 8)}" (render-farm jobs show ${jobId.slice(0, 8)} prints it)`,
    ]);
    const d = await cli('webhooks', 'deliveries', '--job', jobId.slice(0, 8));
    expect([d.code, d.stdout.trim()], d.stderr).toEqual([0, 'no deliveries']);
  });

  it('an ambiguous prefix is a usage error listing the jobs it matches; the full ID still works', async () => {
    for (const cmd of [['show'], ['cancel'], ['retry'], ['watch']]) {
      const r = await cli('jobs', ...cmd, 'abcdef01');
      expect(r.code, `${cmd}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim()).toBe(
        `render-farm: job ID prefix "abcdef01" matches 2 jobs: ${twins.join(', ')}; give more of the ID`,
      );
    }
    const one = await cli('jobs', 'show', twins[1]!);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain(twins[1]);
    expect(one.stdout).not.toContain(twins[0]);
  });

  it('an unknown prefix is the not-found error; fewer than 6 digits says so (exit 2 both)', async () => {
    const unknown = await cli('jobs', 'show', '000000');
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, 'render-farm: no job 000000']);
    const short = await cli('jobs', 'show', 'abcde');
    expect([short.code, short.stderr.trim()]).toEqual([
      2,
      'render-farm: job ID prefix "abcde" is too short: give at least 6 hex digits of the ID',
    ]);
  });
});
