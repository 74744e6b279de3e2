/** `top` on a split render: the workers rendering its chunks show it, and its row counts chunks. */
import { describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { enqueueMany } from '../../src/jobs/queue/add-job.js';
import { holderOf } from '../../src/jobs/claim-fence.js';
import { claimChunk, splitRender } from '../../src/jobs/chunk-lifecycle.js';
import { claimRender } from '../../src/jobs/render-lifecycle.js';
import { submitRender } from '../../src/jobs/submit.js';
import { chunkPieceKeys } from '../../src/jobs/render-files.js';
import { farmSnapshot } from '../../src/top/farm-snapshot.js';
import { useQueueDb } from '../helpers/queue-db.js';

describe('render-farm top with split renders', () => {
  const t = useQueueDb();

  it('shows the job on every worker rendering one of its chunks, and d/t chunks on its row', async () => {
    const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
    const customerId = (await ensureCustomer(t.db.db, 'acme')).id;
    const s = await submitRender(t.db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { format: 'video', width: 640, height: 480, profile: 'fast' },
    });
    for (const [id, pid] of [
      ['w-a', 1],
      ['w-b', 2],
      ['w-c', 3],
    ] as const) {
      await t.db.db
        .insertInto('workers')
        .values({ id, hostname: `host-${id}`, pid, concurrency: 1, backend: JSON.stringify({ backend: 'egl' }) })
        .execute();
    }
    // claimed and split, as the render task does; two of three chunks taken by two workers
    const planner = await claimRender(t.db.db, s.render.id, { workerId: 'w-c', lockedBy: null });
    const plan = '00000000-0000-4000-8000-0000000000c1';
    await splitRender(t.db.db, s.render.id, holderOf(planner!), plan, [
      { idx: 0, start: 0, end: 30 },
      { idx: 1, start: 30, end: 60 },
      { idx: 2, start: 60, end: 120 },
    ]);
    await enqueueMany(
      t.db.db,
      'render-chunk',
      [0, 1, 2].map((idx) => ({ payload: { renderId: s.render.id, plan, idx }, priority: 5 })),
    );
    for (const [idx, workerId] of [
      [0, 'w-a'],
      [1, 'w-b'],
    ] as const) {
      await claimChunk(t.db.db, s.render.id, plan, idx, {
        workerId,
        lockedBy: null,
        pieces: (r) => chunkPieceKeys(r, plan, idx),
      });
    }
    const snap = await farmSnapshot(t.db);
    const state = Object.fromEntries(snap.workers.map((w) => [w.host, [w.state, w.jobId]]));
    expect(state).toEqual({
      'host-w-a': ['rendering', s.jobId],
      'host-w-b': ['rendering', s.jobId],
      'host-w-c': ['idle', null],
    });
    // and which chunk each renders (the console's overview shows it)
    expect(Object.fromEntries(snap.workers.map((w) => [w.host, w.chunk]))).toEqual({
      'host-w-a': 0,
      'host-w-b': 1,
      'host-w-c': null,
    });
    expect(snap.running).toEqual([expect.objectContaining({ jobId: s.jobId, worker: '0/3 chunks' })]);
    // chunk jobs are their own kind in the QUEUE line (none locked in this fixture)
    expect(snap.queue.find((q) => q.kind === 'render-chunk')).toEqual({ kind: 'render-chunk', queued: 3, running: 0 });
  });
});
