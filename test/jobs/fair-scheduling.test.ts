/**
 * Fair scheduling with a real graphile-worker and real renders: a small job of customer B,
 * submitted after customer A's backlog, runs before that backlog (priority from the customer's
 * in-flight work). B's build carries a saved interactive state, so this also renders through
 * the worker's cache-key check with a state parsed back from the row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { renderJobKey } from '../../src/jobs/queue/task-map.js';
import { submitRender } from '../../src/jobs/submit.js';
import { startWorker, type RunningWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/log.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { waitFor } from '../helpers/wait-for.js';
import { useQueueDb } from '../helpers/queue-db.js';

const SMALL = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;

describe('fair scheduling', () => {
  const t = useQueueDb();
  let engine: RenderEngine;
  let worker: RunningWorker | null = null;

  beforeAll(async () => {
    engine = await createRenderEngine(t.cfg);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await engine?.close();
  });

  it("runs customer B's small job before customer A's earlier backlog", async () => {
    const a = (await ensureCustomer(t.db.db, 'acme')).id;
    const b = (await ensureCustomer(t.db.db, 'globex')).id;
    const glass = DEMO_BUILDS.find((x) => x.shareCode === 'DEMO-GLASS')!;
    const stated = DEMO_BUILDS.find((x) => x.interactiveState)!;
    const backlog = [];
    for (const zoom of [1.01, 1.02, 1.03, 1.04]) {
      backlog.push(
        await submitRender(t.db, {
          customerId: a,
          parts: glass.parts,
          state: null,
          options: { ...SMALL, cameraZoom: zoom },
        }),
      );
    }
    const small = await submitRender(t.db, {
      customerId: b,
      parts: stated.parts,
      state: stated.interactiveState ?? null,
      options: SMALL,
    });
    const priority = async (renderId: string) =>
      (await t.db.pool.query('SELECT priority FROM graphile_worker.jobs WHERE key = $1', [renderJobKey(renderId)]))
        .rows[0].priority as number;
    const aPriorities = await Promise.all(backlog.map((s) => priority(s.render.id)));
    expect(aPriorities).toEqual([...aPriorities].sort((x, y) => x - y)); // A sinks as its backlog grows
    expect(await priority(small.render.id)).toBeLessThan(aPriorities[1]!);

    worker = await startWorker(t.cfg, t.db, await openArtifactStore(t.cfg), createLogger({ logLevel: 'silent' }), {
      concurrency: 1,
      renderTimeoutMs: 120_000,
      drainTimeoutMs: 10_000,
      engine,
    });
    const ids = [...backlog, small].map((s) => s.render.id);
    const rows = await waitFor(
      'all five renders to finish',
      async () => {
        const r = await t.db.db
          .selectFrom('renders')
          .select(['id', 'status', 'started_at', 'error'])
          .where('id', 'in', ids)
          .execute();
        return r.every((x) => x.status === 'completed' || x.status === 'error') ? r : null;
      },
      { timeoutMs: 240_000, intervalMs: 1_000, wake: { emitter: worker.events, events: ['job:complete'] } },
    );
    expect(rows.map((r) => r.error)).toEqual(rows.map(() => null));
    const order = [...rows].sort((x, y) => x.started_at!.getTime() - y.started_at!.getTime()).map((r) => r.id);
    // at most A's first job (equal priority, submitted earlier) runs before B's
    expect(order.indexOf(small.render.id)).toBeLessThanOrEqual(1);
    expect(order.slice(-3)).toEqual(backlog.slice(1).map((s) => s.render.id));
  }, 300_000);
});
