/**
 * The ids a worker reports in its heartbeat (workers.graphile_ids) are the ids graphile-worker
 * locks its jobs with, so the sweeper, `jobs retry` and a drain past its bound free them
 * (force_unlock_workers). graphile-worker 0.17 moved locked_by from each worker's id to its
 * WorkerPool's; a worker that still reported its workers' ids freed nothing. Real worker, real
 * graphile runner; the fake stage (RENDER_FARM_FAKE_STAGE_MS) keeps a render running meanwhile.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { forceUnlockWorkers } from '../../src/jobs/queue/graphile-tables.js';
import { renderJobKey } from '../../src/jobs/queue/task-map.js';
import { submitRender } from '../../src/jobs/submit.js';
import { startWorker, type RunningWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/log.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { waitFor } from '../helpers/wait-for.js';
import { useQueueDb } from '../helpers/queue-db.js';

describe("a worker's graphile ids", () => {
  // slow fake frames: the render stays locked while the test looks at it
  const t = useQueueDb({ overrides: { fakeStageMs: 500 }, timeoutMs: 120_000 });
  let worker: RunningWorker | null = null;

  afterAll(async () => {
    await worker?.stop();
  });

  it('name the locked_by of the jobs it runs, and freeing them unlocks those jobs', async () => {
    worker = await startWorker(t.cfg, t.db, await openArtifactStore(t.cfg), createLogger({ logLevel: 'silent' }), {
      concurrency: 1,
      renderTimeoutMs: 120_000,
      drainTimeoutMs: 5_000,
    });
    const customerId = (await ensureCustomer(t.db.db, 'acme')).id;
    const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
    const s = await submitRender(t.db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { format: 'sprite', width: 256, height: 256, profile: 'fast' },
    });
    const lockedBy = async () =>
      (
        await t.db.pool.query<{ locked_by: string | null }>(
          'SELECT locked_by FROM graphile_worker.jobs WHERE key = $1',
          [renderJobKey(s.render.id)],
        )
      ).rows[0]?.locked_by ?? null;
    const holder = await waitFor('the render job to be locked', lockedBy, { timeoutMs: 30_000 });
    const reported = async () =>
      (
        await t.db.db
          .selectFrom('workers')
          .select('graphile_ids')
          .where('id', '=', worker!.id)
          .executeTakeFirstOrThrow()
      ).graphile_ids;
    expect(await reported()).toContain(holder);

    await forceUnlockWorkers(t.db.db, await reported());
    expect(await lockedBy()).toBeNull();
  }, 120_000);
});
