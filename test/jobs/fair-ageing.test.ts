/**
 * Ageing with graphile-worker's real queue: a render or chunk job that waited a step rises one
 * priority, once per step however often (and by however many sweepers) it is checked;
 * thumbnails and locked jobs do not move.
 */
import { describe, expect, it } from 'vitest';
import { ageWaitingJobs } from '../../src/jobs/fair-priority.js';
import { enqueue, enqueueMany } from '../../src/jobs/queue/add-job.js';
import { useQueueDb } from '../helpers/queue-db.js';

describe('priority ageing', () => {
  const t = useQueueDb({ seed: false });

  const priorities = async () =>
    (await t.db.pool.query(`SELECT key, priority FROM graphile_worker.jobs ORDER BY key`)).rows.map((r) => [
      r.key,
      r.priority,
    ]);
  // test-only: pretend every job has waited `s` seconds untouched
  const waited = (s: number) =>
    t.db.pool.query(`UPDATE graphile_worker._private_jobs SET updated_at = now() - make_interval(secs => $1)`, [s]);

  it('raises waiting render and chunk jobs one step per AGE_STEP_S, never below 0, thumbnails untouched', async () => {
    const renderId = '00000000-0000-4000-8000-00000000000a';
    const plan = '00000000-0000-4000-8000-00000000000b';
    await enqueue(t.db.db, 'render', { renderId }, { priority: 5 });
    await enqueueMany(
      t.db.db,
      'render-chunk',
      [0, 1].map((idx) => ({ payload: { renderId, plan, idx }, priority: 1 })),
    );
    await t.db.pool.query(
      `SELECT graphile_worker.add_job('thumbnail-batch', '{}'::json, job_key := 'thumbs', priority := 100)`,
    );
    expect(await ageWaitingJobs(t.db.db)).toBe(0);
    await waited(61);
    expect(await ageWaitingJobs(t.db.db)).toBe(3);
    // just risen: not again until another step has passed
    expect(await ageWaitingJobs(t.db.db)).toBe(0);
    await waited(61);
    await ageWaitingJobs(t.db.db);
    expect(await priorities()).toEqual([
      [`chunk:${plan}:0`, 0],
      [`chunk:${plan}:1`, 0],
      [`render:${renderId}`, 3],
      ['thumbs', 100],
    ]);
  });
});
