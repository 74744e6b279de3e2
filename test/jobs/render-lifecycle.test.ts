/**
 * The render lifecycle's named transitions on a real database, the events trigger they drive,
 * and typed enqueueing (the task's own schema refuses a bad payload before it is queued).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { renderJobKey } from '../../src/jobs/queue/task-map.js';
import {
  claimRender,
  completeRender,
  createRender,
  failRender,
  recordProgress,
  releaseWorkerRenders,
  reopenFailedRender,
  reopenRender,
  requeueRender,
} from '../../src/jobs/render-lifecycle.js';
import { enqueue } from '../../src/jobs/queue/add-job.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { normaliseRequest } from '../../src/model/render-request.js';
import { useQueueDb } from '../helpers/queue-db.js';

describe('render lifecycle', () => {
  const t = useQueueDb({ seed: false });
  let n = 0;
  const request = normaliseRequest({ PCCase: ['x1'] }, null, resolveRenderOptions({ format: 'sprite', width: 256, height: 256, profile: 'fast' }));
  const fresh = async () => {
    const r = await createRender(t.db.db, 'sprite', {
      cacheKey: `key-${++n}-${Date.now()}`,
      request,
      partVersions: { x1: 3 },
      rendererVersion: 'r1',
      estimatedCostS: 2.5,
    });
    if (!r) throw new Error('not created');
    return r;
  };
  const row = (id: string) => t.db.db.selectFrom('renders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    await ensureCustomer(t.db.db, 'acme');
  });

  it('creates a queued render recording what its key was computed with, once per key', async () => {
    const r = await fresh();
    expect(r).toMatchObject({ status: 'queued', part_versions: { x1: 3 }, renderer_version: 'r1', estimated_cost_s: 2.5 });
    const again = await createRender(t.db.db, 'sprite', { cacheKey: r.cache_key, request, partVersions: {}, rendererVersion: 'r2', estimatedCostS: 1 });
    expect(again).toBeUndefined();
  });

  it('claim -> progress (clamped below 1) -> complete, and a final render cannot be claimed again', async () => {
    const r = await fresh();
    const claimed = await claimRender(t.db.db, r.id, { workerId: 'w1', lockedBy: 'gw1' });
    expect(claimed).toMatchObject({ status: 'processing', worker_id: 'w1', locked_by: 'gw1', attempts: 1 });
    await recordProgress(t.db.db, r.id, 1.7);
    expect(Number((await row(r.id)).progress)).toBeCloseTo(0.99);
    await completeRender(t.db.db, r.id, { artifacts: { sprite: 'k/sprite.webp' }, spriteLayout: { columns: 12 }, backend: 'egl', framesPerSecond: 10, renderMs: 1234.4 });
    expect(await row(r.id)).toMatchObject({ status: 'completed', progress: 1, artifacts: { sprite: 'k/sprite.webp' }, render_ms: 1234 });
    expect(await claimRender(t.db.db, r.id, { workerId: 'w2', lockedBy: 'gw2' })).toBeUndefined();
    // progress after completion changes nothing
    await recordProgress(t.db.db, r.id, 0.5);
    expect((await row(r.id)).progress).toBe(1);
  });

  it('requeue keeps the reason; fail is final; a failed render is reopened when asked for again', async () => {
    const r = await fresh();
    await claimRender(t.db.db, r.id, { workerId: 'w1', lockedBy: null });
    await requeueRender(t.db.db, r.id, 'browser crashed');
    expect(await row(r.id)).toMatchObject({ status: 'queued', error: 'browser crashed', progress: 0 });
    await claimRender(t.db.db, r.id, { workerId: 'w1', lockedBy: null });
    await failRender(t.db.db, r.id, 'timed out');
    expect(await row(r.id)).toMatchObject({ status: 'error', error: 'timed out' });
    expect(await reopenRender(t.db.db, r.id, 'completed')).toBeUndefined();
    const reopened = await reopenFailedRender(t.db.db, r.cache_key, 9);
    expect(reopened).toMatchObject({ status: 'queued', error: null, attempts: 0, estimated_cost_s: 9 });
    expect(await reopenFailedRender(t.db.db, r.cache_key, 9)).toBeUndefined();
  });

  it("releases only the named workers' processing renders", async () => {
    const [a, b, c] = [await fresh(), await fresh(), await fresh()];
    await claimRender(t.db.db, a.id, { workerId: 'dead', lockedBy: null });
    await claimRender(t.db.db, b.id, { workerId: 'alive', lockedBy: null });
    await claimRender(t.db.db, c.id, { workerId: 'dead', lockedBy: null });
    await completeRender(t.db.db, c.id, { artifacts: {}, spriteLayout: null, backend: 'egl', framesPerSecond: 1, renderMs: 1 });
    expect(await releaseWorkerRenders(t.db.db, ['dead'])).toBe(1);
    expect((await row(a.id)).status).toBe('queued');
    expect((await row(b.id)).status).toBe('processing');
    expect((await row(c.id)).status).toBe('completed');
  });

  it('transitions still drive the render_events trigger', async () => {
    const r = await fresh();
    const before = Number((await t.db.pool.query(`SELECT count(*) AS n FROM render_events WHERE render_id = $1`, [r.id])).rows[0].n);
    await claimRender(t.db.db, r.id, { workerId: 'w1', lockedBy: null });
    await failRender(t.db.db, r.id, 'x');
    const after = Number((await t.db.pool.query(`SELECT count(*) AS n FROM render_events WHERE render_id = $1`, [r.id])).rows[0].n);
    expect(after).toBeGreaterThan(before);
  });

  it('enqueues with the task schema: priority and key set, a payload the handler would refuse is never queued', async () => {
    const r = await fresh();
    await enqueue(t.db.db, 'render', { renderId: r.id }, { priority: 7 });
    const { rows } = await t.db.pool.query(
      `SELECT j.priority, j.payload, j.max_attempts, t.identifier FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE j.key = $1`,
      [renderJobKey(r.id)],
    );
    expect(rows).toEqual([{ priority: 7, payload: { renderId: r.id }, max_attempts: 3, identifier: 'render' }]);
    const count = async () => Number((await t.db.pool.query(`SELECT count(*) AS n FROM graphile_worker.jobs`)).rows[0].n);
    const before = await count();
    await expect(enqueue(t.db.db, 'render', { renderId: 'not-a-uuid' })).rejects.toThrow();
    expect(await count()).toBe(before);
  });
});
