/**
 * The task map end to end: enqueue(name, payload) is typed by the map (checked by tsc through
 * the @ts-expect-error lines) and writes each task's declared attempts, priority and job key
 * into graphile's real queue; a runner hands a handler the payload its schema parsed, and
 * completes a malformed job without running the handler. graphile's own complaints (a failed
 * task with its stack) go to the runner's logger, not to the console.
 */
import { EventEmitter } from 'node:events';
import type { WorkerEvents } from 'graphile-worker';
import { describe, expect, it, vi } from 'vitest';
import { enqueue, enqueueMany } from '../../src/jobs/queue/add-job.js';
import { startRunner } from '../../src/jobs/queue/runner.js';
import {
  ASSEMBLE_PRIORITY,
  MAX_ATTEMPTS,
  THUMBNAIL_MAX_ATTEMPTS,
  THUMBNAIL_PRIORITY,
  WEBHOOK_MAX_ATTEMPTS,
  type Payload,
} from '../../src/jobs/queue/task-map.js';
import { captureLogger } from '../helpers/log-capture.js';
import { waitFor } from '../helpers/wait-for.js';
import { useQueueDb } from '../helpers/queue-db.js';

const renderId = '00000000-0000-4000-8000-0000000000a1';
const plan = '00000000-0000-4000-8000-0000000000b2';
const deliveryId = '00000000-0000-4000-8000-0000000000c3';

describe('task map', () => {
  const t = useQueueDb({ seed: false });

  it('enqueue writes each task with the attempts, priority and job key the map declares', async () => {
    await enqueue(t.db.db, 'render', { renderId }, { priority: 7 });
    await enqueueMany(
      t.db.db,
      'render-chunk',
      [0, 1].map((idx) => ({ payload: { renderId, plan, idx }, priority: 4 })),
    );
    await enqueue(t.db.db, 'render-assemble', { renderId, plan });
    await enqueue(t.db.db, 'thumbnail', { partIds: ['p1', 'p2'] });
    await enqueue(t.db.db, 'webhook', { deliveryId });
    const { rows } = await t.db.pool.query(
      `SELECT task_identifier AS task, key, priority, max_attempts AS max FROM graphile_worker.jobs ORDER BY task_identifier, key`,
    );
    expect(rows).toEqual([
      { task: 'render', key: `render:${renderId}`, priority: 7, max: MAX_ATTEMPTS },
      { task: 'render-assemble', key: `assemble:${plan}`, priority: ASSEMBLE_PRIORITY, max: MAX_ATTEMPTS },
      { task: 'render-chunk', key: `chunk:${plan}:0`, priority: 4, max: MAX_ATTEMPTS },
      { task: 'render-chunk', key: `chunk:${plan}:1`, priority: 4, max: MAX_ATTEMPTS },
      { task: 'thumbnail', key: null, priority: THUMBNAIL_PRIORITY, max: THUMBNAIL_MAX_ATTEMPTS },
      { task: 'webhook', key: null, priority: 0, max: WEBHOOK_MAX_ATTEMPTS },
    ]);
  });

  it('refuses a payload its task would refuse, before it reaches the queue', async () => {
    await expect(enqueue(t.db.db, 'webhook', { deliveryId: 'not-a-uuid' })).rejects.toThrow();
    // @ts-expect-error a render payload has no plan
    await expect(enqueue(t.db.db, 'render-assemble', { renderId })).rejects.toThrow();
    // @ts-expect-error no such task
    await expect(enqueue(t.db.db, 'no-such-task', {})).rejects.toThrow();
  });

  it('a runner hands its handler the parsed payload, and completes a malformed job without running it', async () => {
    await t.db.pool.query('DELETE FROM graphile_worker._private_jobs');
    await enqueue(t.db.db, 'render-chunk', { renderId, plan, idx: 2 });
    // written past enqueue (as an old or foreign producer could): the schema refuses it at run time
    await t.db.pool.query(
      `SELECT graphile_worker.add_job('render-chunk', '{"renderId": "x", "idx": -1}'::json, max_attempts := 1)`,
    );
    const seen: Payload<'render-chunk'>[] = [];
    const events: WorkerEvents = new EventEmitter();
    const runner = await startRunner({
      pool: t.db.pool,
      log: captureLogger().log,
      handlers: { 'render-chunk': async (p) => void seen.push(p) },
      concurrency: 1,
      pollInterval: 100,
      events,
    });
    try {
      const left = async () =>
        Number((await t.db.pool.query('SELECT count(*) AS n FROM graphile_worker.jobs')).rows[0].n);
      await waitFor('both jobs done', async () => (await left()) === 0, {
        timeoutMs: 20_000,
        wake: { emitter: events, events: ['job:complete'] },
      });
    } finally {
      await runner.stop();
    }
    expect(seen).toEqual([{ renderId, plan, idx: 2 }]);
  });

  it("a failed task is logged to the runner's logger with its stack, and nothing reaches the console", async () => {
    await t.db.pool.query('DELETE FROM graphile_worker._private_jobs');
    await t.db.pool.query(`SELECT graphile_worker.add_job('render-chunk', $1::json, max_attempts := 1)`, [
      JSON.stringify({ renderId, plan, idx: 3 }),
    ]);
    const captured = captureLogger();
    const events: WorkerEvents = new EventEmitter();
    const failed = new Promise((resolve) => events.once('job:failed', resolve));
    // watches the console of this process: a passing run must print nothing here
    const stderr = vi.spyOn(process.stderr, 'write');
    const runner = await startRunner({
      pool: t.db.pool,
      log: captured.log,
      handlers: {
        'render-chunk': async () => {
          throw new Error('the chunk broke');
        },
      },
      concurrency: 1,
      pollInterval: 100,
      events,
    });
    try {
      await failed;
      await waitFor('the failure to be logged', () => captured.find(/^Failed task/).length === 1, { timeoutMs: 5_000 });
    } finally {
      await runner.stop();
      stderr.mockRestore();
    }
    const [line] = captured.find(/^Failed task/);
    expect(line!.level).toBe(50);
    expect(line!.msg).toMatch(/^Failed task \d+ \(render-chunk, .*attempt 1 of 1\) with error 'the chunk broke'$/);
    expect(line!.err.stack).toContain('the chunk broke');
    expect(stderr.mock.calls.map((c) => String(c[0])).filter((s) => s.includes('graphile-worker'))).toEqual([]);
  });
});
