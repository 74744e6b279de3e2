import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { UnknownPartsError } from '../../src/catalog/resolve-build.js';
import { renderJobKey } from '../../src/jobs/queue/task-map.js';
import { estimateRenderCost } from '../../src/jobs/cost-model.js';
import { priorityFor } from '../../src/jobs/fair-priority.js';
import { retryJob } from '../../src/jobs/jobs-repository.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { rendererVersion } from '../../src/render/renderer-version.js';
import { submitRender } from '../../src/jobs/submit.js';
import { useQueueDb } from '../helpers/queue-db.js';

describe('render submission (no worker running)', () => {
  const t = useQueueDb();
  let acme: string;
  let globex: string;
  const parts = () => DEMO_BUILDS[0].parts as Record<string, string[]>;
  const queueJobs = async () =>
    Number(
      (await t.db.pool.query(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'render'`)).rows[0]
        .n,
    );

  /** customer's submission of the parts, no saved state (a new cameraZoom in options: a render of its own) */
  const submitParts = (customerId: string, options: Parameters<typeof submitRender>[1]['options']) =>
    submitRender(t.db, { customerId, parts: parts(), state: null, options });

  beforeAll(async () => {
    acme = (await ensureCustomer(t.db.db, 'acme')).id;
    globex = (await ensureCustomer(t.db.db, 'globex')).id;
  });

  it('creates and enqueues a new render, then reuses it for the same customer with the same job id', async () => {
    const first = await submitParts(acme, { format: 'sprite', cameraZoom: 1.11 });
    expect(first.outcome).toBe('new');
    expect(first.render.status).toBe('queued');
    const again = await submitParts(acme, { format: 'sprite', cameraZoom: 1.11 });
    expect(again).toMatchObject({ outcome: 'reused', jobId: first.jobId });
    expect(again.render.id).toBe(first.render.id);
  });

  it('gives another customer its own job id for the shared render', async () => {
    const a = await submitParts(acme, { format: 'sprite', cameraZoom: 1.22 });
    const g = await submitParts(globex, { format: 'sprite', cameraZoom: 1.22 });
    expect(g.outcome).toBe('reused');
    expect(g.jobId).not.toBe(a.jobId);
    expect(g.render.id).toBe(a.render.id);
  });

  it('renders 20 concurrent identical submissions once', async () => {
    const before = await queueJobs();
    const opts = { format: 'video' as const, cameraZoom: 1.33 };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => submitParts(i % 2 ? acme : globex, opts)));
    expect(new Set(results.map((r) => r.render.id)).size).toBe(1);
    expect(results.filter((r) => r.outcome === 'new')).toHaveLength(1);
    expect(new Set(results.map((r) => r.jobId)).size).toBe(2);
    expect(await queueJobs()).toBe(before + 1);
    const { rows } = await t.db.pool.query(`SELECT count(*) AS n FROM renders WHERE cache_key = $1`, [
      results[0].render.cache_key,
    ]);
    expect(Number(rows[0].n)).toBe(1);
  });

  it('re-queues a failed render when it is asked for again', async () => {
    const s = await submitParts(acme, { cameraZoom: 1.44 });
    await t.db.db
      .updateTable('renders')
      .set({ status: 'error', error: 'boom' })
      .where('id', '=', s.render.id)
      .execute();
    const again = await submitParts(acme, { cameraZoom: 1.44 });
    expect(again.outcome).toBe('new');
    expect(again.jobId).toBe(s.jobId);
    expect(again.render).toMatchObject({ status: 'queued', error: null });
  });

  it('names unknown parts', async () => {
    await expect(
      submitRender(t.db, { customerId: acme, parts: { GPU: ['nosuch111', 'nosuch222'] }, state: null, options: {} }),
    ).rejects.toThrow(UnknownPartsError);
  });

  it('keys saved state: the same parts with a different state are a different render', async () => {
    const withState = DEMO_BUILDS.find((b) => b.interactiveState)!;
    const p = withState.parts as Record<string, string[]>;
    const a = await submitRender(t.db, { customerId: acme, parts: p, state: withState.interactiveState!, options: {} });
    const b = await submitRender(t.db, { customerId: acme, parts: p, state: null, options: {} });
    expect(a.render.id).not.toBe(b.render.id);
  });

  it("records the estimate and the key inputs, and queues behind the customer's own load (retry too)", async () => {
    const initech = (await ensureCustomer(t.db.db, 'initech')).id;
    const priority = async (renderId: string) =>
      (await t.db.pool.query('SELECT priority FROM graphile_worker.jobs WHERE key = $1', [renderJobKey(renderId)]))
        .rows[0].priority as number;
    const big = { format: 'video' as const, width: 1920, height: 1080, profile: 'cinematic' as const };
    const first = await submitParts(initech, { ...big, cameraZoom: 1.51 });
    expect(first.render.estimated_cost_s).toBe(estimateRenderCost(resolveRenderOptions(big)).seconds);
    expect(first.render.renderer_version).toBe(await rendererVersion());
    expect(Object.keys(first.render.part_versions ?? {}).sort()).toEqual(Object.values(parts()).flat().sort());
    const p1 = await priority(first.render.id);
    expect(p1).toBe(priorityFor(0, first.render.estimated_cost_s!));
    const second = await submitParts(initech, { ...big, cameraZoom: 1.52 });
    expect(await priority(second.render.id)).toBeGreaterThan(p1);
    // an operator's retry re-enqueues behind the customer's other work, not behind itself
    await t.db.db
      .updateTable('renders')
      .set({ status: 'error', error: 'boom' })
      .where('id', '=', first.render.id)
      .execute();
    await t.db.pool.query('DELETE FROM graphile_worker._private_jobs WHERE key = $1', [renderJobKey(first.render.id)]);
    await retryJob(t.db, first.jobId);
    expect(await priority(first.render.id)).toBe(
      priorityFor(second.render.estimated_cost_s!, first.render.estimated_cost_s!),
    );
  });
});
