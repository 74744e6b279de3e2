/**
 * The render lifecycle's named transitions on a real database, the events trigger they drive,
 * and typed enqueueing (the task's own schema refuses a bad payload before it is queued).
 */
import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import type { Database } from '../../src/db/schema.js';
import { renderJobKey } from '../../src/jobs/queue/task-map.js';
import { holderOf, type Holder } from '../../src/jobs/claim-fence.js';
import {
  claimChunk,
  completeChunk,
  failChunk,
  holdsChunk,
  recordChunkProgress,
  releaseWorkerChunks,
  requeueChunk,
  splitRender,
} from '../../src/jobs/chunk-lifecycle.js';
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
  const request = normaliseRequest(
    { PCCase: ['x1'] },
    null,
    resolveRenderOptions({ format: 'sprite', width: 256, height: 256, profile: 'fast' }),
  );
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
  /** A finished render's result; only its artifacts matter to these tests. */
  const tinyResult = (artifacts: Record<string, string>): Parameters<typeof completeRender>[3] => ({
    artifacts,
    spriteLayout: null,
    backend: 'egl',
    framesPerSecond: 1,
    renderMs: 1,
  });
  const row = (id: string) => t.db.db.selectFrom('renders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    await ensureCustomer(t.db.db, 'acme');
  });

  it('creates a queued render recording what its key was computed with, once per key', async () => {
    const r = await fresh();
    expect(r).toMatchObject({
      status: 'queued',
      part_versions: { x1: 3 },
      renderer_version: 'r1',
      estimated_cost_s: 2.5,
    });
    const again = await createRender(t.db.db, 'sprite', {
      cacheKey: r.cache_key,
      request,
      partVersions: {},
      rendererVersion: 'r2',
      estimatedCostS: 1,
    });
    expect(again).toBeUndefined();
  });

  it('claim -> progress (clamped below 1) -> complete, and a final render cannot be claimed again', async () => {
    const r = await fresh();
    const claimed = await claimRender(t.db.db, r.id, { workerId: 'w1', lockedBy: 'gw1' });
    expect(claimed).toMatchObject({ status: 'processing', worker_id: 'w1', locked_by: 'gw1', attempts: 1 });
    const w1 = holderOf(claimed!);
    expect(await recordProgress(t.db.db, r.id, w1, 1.7)).toEqual({ held: true });
    expect(Number((await row(r.id)).progress)).toBeCloseTo(0.99);
    await completeRender(t.db.db, r.id, w1, {
      artifacts: { sprite: 'k/sprite.webp' },
      spriteLayout: { columns: 12 },
      backend: 'egl',
      framesPerSecond: 10,
      renderMs: 1234.4,
    });
    expect(await row(r.id)).toMatchObject({
      status: 'completed',
      progress: 1,
      artifacts: { sprite: 'k/sprite.webp' },
      render_ms: 1234,
    });
    expect(await claimRender(t.db.db, r.id, { workerId: 'w2', lockedBy: 'gw2' })).toBeUndefined();
    // progress after completion changes nothing
    expect(await recordProgress(t.db.db, r.id, w1, 0.5)).toEqual({ held: false, holder: 'w1', status: 'completed' });
    expect((await row(r.id)).progress).toBe(1);
  });

  it('requeue keeps the reason; fail is final; a failed render is reopened when asked for again', async () => {
    const r = await fresh();
    const first = holderOf((await claimRender(t.db.db, r.id, { workerId: 'w1', lockedBy: null }))!);
    await requeueRender(t.db.db, r.id, first, 'browser crashed');
    expect(await row(r.id)).toMatchObject({ status: 'queued', error: 'browser crashed', progress: 0 });
    const second = holderOf((await claimRender(t.db.db, r.id, { workerId: 'w1', lockedBy: null }))!);
    // the same worker's earlier claim is stale too
    expect(second.claim).not.toBe(first.claim);
    await failRender(t.db.db, r.id, second, 'timed out');
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
    const cHolder = holderOf((await claimRender(t.db.db, c.id, { workerId: 'dead', lockedBy: null }))!);
    await completeRender(t.db.db, c.id, cHolder, tinyResult({}));
    expect(await releaseWorkerRenders(t.db.db, ['dead'])).toBe(1);
    expect((await row(a.id)).status).toBe('queued');
    expect((await row(b.id)).status).toBe('processing');
    expect((await row(c.id)).status).toBe('completed');
  });

  it("a render taken over: the old holder's progress, requeue, fail, complete and split change nothing", async () => {
    const r = await fresh();
    const a = holderOf((await claimRender(t.db.db, r.id, { workerId: 'A', lockedBy: null }))!);
    // A is declared dead; B claims the released render
    expect(await releaseWorkerRenders(t.db.db, ['A'])).toBe(1);
    const b = holderOf((await claimRender(t.db.db, r.id, { workerId: 'B', lockedBy: null }))!);
    await recordProgress(t.db.db, r.id, b, 0.4);
    const takenOver = { held: false, holder: 'B', status: 'processing' };
    expect(await recordProgress(t.db.db, r.id, a, 0.9)).toEqual(takenOver);
    expect(await requeueRender(t.db.db, r.id, a, 'lost the database')).toEqual(takenOver);
    expect(await failRender(t.db.db, r.id, a, 'last attempt failed')).toEqual(takenOver);
    expect(
      await splitRender(t.db.db, r.id, a, '00000000-0000-4000-8000-0000000000a1', [
        { idx: 0, start: 0, end: 36 },
        { idx: 1, start: 36, end: 72 },
      ]),
    ).toEqual(takenOver);
    expect(await completeRender(t.db.db, r.id, a, tinyResult({ sprite: 'a' }))).toEqual(takenOver);
    expect(await row(r.id)).toMatchObject({
      status: 'processing',
      worker_id: 'B',
      error: null,
      chunk_plan: null,
      artifacts: null,
    });
    expect(Number((await row(r.id)).progress)).toBeCloseTo(0.4);
    expect(await t.db.db.selectFrom('render_chunks').select('idx').where('render_id', '=', r.id).execute()).toEqual([]);
    // B's result stands
    expect(await completeRender(t.db.db, r.id, b, tinyResult({ sprite: 'b' }))).toEqual({ held: true });
    expect(await row(r.id)).toMatchObject({ status: 'completed', worker_id: 'B', artifacts: { sprite: 'b' } });
  });

  it("a released render not claimed again is still its old holder's to finish; a reopened one is not", async () => {
    const r = await fresh();
    const a = holderOf((await claimRender(t.db.db, r.id, { workerId: 'A', lockedBy: null }))!);
    await releaseWorkerRenders(t.db.db, ['A']);
    expect(await completeRender(t.db.db, r.id, a, tinyResult({ sprite: 'a' }))).toEqual({ held: true });
    expect((await row(r.id)).status).toBe('completed');
    const r2 = await fresh();
    const a2 = holderOf((await claimRender(t.db.db, r2.id, { workerId: 'A', lockedBy: null }))!);
    await failRender(t.db.db, r2.id, a2, 'x');
    await reopenFailedRender(t.db.db, r2.cache_key, 1);
    expect(await completeRender(t.db.db, r2.id, a2, tinyResult({}))).toMatchObject({ held: false, status: 'queued' });
  });

  it("a chunk taken over: the old holder's progress, requeue, fail and complete change nothing; the new holder's completion stands", async () => {
    const r = await fresh();
    const planner = holderOf((await claimRender(t.db.db, r.id, { workerId: 'P', lockedBy: null }))!);
    const plan = '00000000-0000-4000-8000-0000000000b1';
    expect(
      await splitRender(t.db.db, r.id, planner, plan, [
        { idx: 0, start: 0, end: 36 },
        { idx: 1, start: 36, end: 72 },
      ]),
    ).toEqual({ held: true });
    const claim = async (idx: number, workerId: string) =>
      holderOf(
        (await claimChunk(t.db.db, r.id, plan, idx, {
          workerId,
          lockedBy: null,
          pieces: () => ({ rows: `p/${idx}/${workerId}` }),
        }))!.chunk,
      );
    const chunk0 = () =>
      t.db.db
        .selectFrom('render_chunks')
        .selectAll()
        .where('render_id', '=', r.id)
        .where('plan', '=', plan)
        .where('idx', '=', 0)
        .executeTakeFirstOrThrow();
    const a = await claim(0, 'A');
    expect(await recordChunkProgress(t.db.db, r.id, plan, 0, a, 10)).toEqual({ held: true });
    // A is declared dead (the sweeper's release), B claims chunk 0
    expect(await releaseWorkerChunks(t.db.db, ['A'])).toBe(1);
    const b = await claim(0, 'B');
    expect(await recordChunkProgress(t.db.db, r.id, plan, 0, b, 5)).toEqual({ held: true });
    const takenOver = { held: false, holder: 'B', status: 'processing' };
    expect(await recordChunkProgress(t.db.db, r.id, plan, 0, a, 30)).toEqual(takenOver);
    expect(await holdsChunk(t.db.db, r.id, plan, 0, a)).toEqual(takenOver);
    expect(await requeueChunk(t.db.db, r.id, plan, 0, a, 'chunk failed, will retry')).toEqual(takenOver);
    expect(await failChunk(t.db.db, r.id, plan, 0, a, 'last attempt failed')).toEqual(takenOver);
    const stale = await t.db.db
      .transaction()
      .execute((trx) =>
        completeChunk(trx, r.id, plan, 0, a, { pieces: { rows: 'p/0/A' }, renderMs: 1, backend: 'egl' }),
      );
    expect(stale).toEqual(takenOver);
    expect(await chunk0()).toMatchObject({
      status: 'processing',
      worker_id: 'B',
      frames_done: 5,
      error: null,
      pieces: { rows: 'p/0/B' },
    });
    expect(await row(r.id)).toMatchObject({ status: 'processing', error: null, chunks_done: 0 });
    // B's completion stands
    const done = await t.db.db
      .transaction()
      .execute((trx) =>
        completeChunk(trx, r.id, plan, 0, b, { pieces: { rows: 'p/0/B' }, renderMs: 1, backend: 'egl' }),
      );
    expect(done).toEqual({ held: true, remaining: 1 });
    expect(await chunk0()).toMatchObject({
      status: 'done',
      worker_id: 'B',
      frames_done: 36,
      pieces: { rows: 'p/0/B' },
    });
    // after B is done, A's writes still change nothing
    expect(await failChunk(t.db.db, r.id, plan, 0, a, 'late')).toEqual({ held: false, holder: 'B', status: 'done' });
    expect((await chunk0()).status).toBe('done');
    expect((await row(r.id)).status).toBe('processing');
    // a holder's own failure still fails the chunk and its render
    const c1 = await claim(1, 'C');
    expect(await failChunk(t.db.db, r.id, plan, 1, c1, 'bad data')).toEqual({ held: true });
    expect(await row(r.id)).toMatchObject({ status: 'error', error: 'chunk 2: bad data' });
  });

  it("stores times from the database's clock (the transaction's now()), never the worker's", async () => {
    const r = await fresh();
    let holder!: Holder;
    // inside one transaction now() is its start: a time written from now() equals it to the microsecond
    const sameAsNow = (trx: Kysely<Database>, col: 'started_at' | 'finished_at' | 'updated_at') =>
      sql<{
        same: boolean;
        after: boolean;
      }>`SELECT ${sql.ref(col)} = now() AS same, ${sql.ref(col)} >= created_at AS after FROM renders WHERE id = ${r.id}`
        .execute(trx)
        .then((q) => q.rows[0]);
    await t.db.db.transaction().execute(async (trx) => {
      holder = holderOf((await claimRender(trx, r.id, { workerId: 'w1', lockedBy: null }))!);
      expect(await sameAsNow(trx, 'started_at')).toEqual({ same: true, after: true });
      expect(await sameAsNow(trx, 'updated_at')).toEqual({ same: true, after: true });
    });
    await t.db.db.transaction().execute(async (trx) => {
      await completeRender(trx, r.id, holder, tinyResult({}));
      expect(await sameAsNow(trx, 'finished_at')).toEqual({ same: true, after: true });
    });
    // and a chunk's (claimed by a worker of a split render)
    const c = await fresh();
    const planner = holderOf((await claimRender(t.db.db, c.id, { workerId: 'P', lockedBy: null }))!);
    const plan = '00000000-0000-4000-8000-0000000000d1';
    await splitRender(t.db.db, c.id, planner, plan, [{ idx: 0, start: 0, end: 72 }]);
    const chunkTimes = (trx: Kysely<Database>) =>
      sql<{ started: boolean; finished: boolean | null; updated: boolean }>`
        SELECT c.started_at = now() AS started, c.finished_at = now() AS finished, c.updated_at = now() AS updated
        FROM render_chunks c WHERE c.render_id = ${c.id} AND c.plan = ${plan} AND c.idx = 0`
        .execute(trx)
        .then((q) => q.rows[0]);
    let w!: Holder;
    await t.db.db.transaction().execute(async (trx) => {
      w = holderOf(
        (await claimChunk(trx, c.id, plan, 0, { workerId: 'W', lockedBy: null, pieces: () => ({}) }))!.chunk,
      );
      expect(await chunkTimes(trx)).toEqual({ started: true, finished: null, updated: true });
    });
    await t.db.db.transaction().execute(async (trx) => {
      await completeChunk(trx, c.id, plan, 0, w, { pieces: {}, renderMs: 1, backend: 'egl' });
      expect(await chunkTimes(trx)).toMatchObject({ finished: true, updated: true });
    });
  });

  it('transitions still drive the render_events trigger', async () => {
    const r = await fresh();
    const before = Number(
      (await t.db.pool.query(`SELECT count(*) AS n FROM render_events WHERE render_id = $1`, [r.id])).rows[0].n,
    );
    const h = holderOf((await claimRender(t.db.db, r.id, { workerId: 'w1', lockedBy: null }))!);
    await failRender(t.db.db, r.id, h, 'x');
    const after = Number(
      (await t.db.pool.query(`SELECT count(*) AS n FROM render_events WHERE render_id = $1`, [r.id])).rows[0].n,
    );
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
    const count = async () =>
      Number((await t.db.pool.query(`SELECT count(*) AS n FROM graphile_worker.jobs`)).rows[0].n);
    const before = await count();
    await expect(enqueue(t.db.db, 'render', { renderId: 'not-a-uuid' })).rejects.toThrow();
    expect(await count()).toBe(before);
  });
});
