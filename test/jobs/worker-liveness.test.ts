/**
 * Worker liveness on the database's clock: a worker whose clock is behind is not dead, and a
 * live worker once swept as dead is revived by its next heartbeat (so a later death is swept).
 * Stale heartbeats are stamped with SQL, never with this process's Date.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import { sweepDeadWorkers } from '../../src/jobs/sweeper.js';
import { startWorker } from '../../src/jobs/worker.js';
import { liveWorkers } from '../../src/jobs/workers-repository.js';
import { createLogger } from '../../src/log.js';
import type { ArtifactStore } from '../../src/storage/artifact-store.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { waitFor } from '../helpers/wait-for.js';
import { useTestDb } from '../helpers/db.js';

describe('worker liveness', () => {
  const t = useTestDb();
  let engine: RenderEngine;
  let store: ArtifactStore;
  const start = () =>
    startWorker(t.cfg, t.db, store, createLogger({ logLevel: 'silent' }), {
      concurrency: 1,
      renderTimeoutMs: 60_000,
      drainTimeoutMs: 5_000,
      engine,
    });
  const isLive = async (id: string) => (await liveWorkers(t.db)).some((w) => w.id === id);
  const stoppedAt = async (id: string) =>
    (await t.db.db.selectFrom('workers').select('stopped_at').where('id', '=', id).executeTakeFirstOrThrow())
      .stopped_at;

  beforeAll(async () => {
    store = await openArtifactStore(t.cfg);
    engine = await createRenderEngine(t.cfg);
  }, 120_000);
  afterAll(async () => {
    vi.useRealTimers();
    await engine?.close();
  });

  it('a worker whose clock is 40 s behind the database is alive, stamped with the database clock', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() - 40_000 });
    const w = await start();
    try {
      const { rows } = await sql<{
        lag: number;
      }>`SELECT extract(epoch FROM now() - last_seen)::float AS lag FROM workers WHERE id = ${w.id}`.execute(t.db.db);
      expect(Math.abs(rows[0].lag)).toBeLessThan(5);
      expect(await isLive(w.id)).toBe(true);
      expect((await sweepDeadWorkers(t.db)).deadWorkers).not.toContain(w.id);
    } finally {
      await w.stop();
      vi.useRealTimers();
    }
  });

  it('a live worker swept as dead comes back with its next heartbeat, and is swept again if it goes silent', async () => {
    const w = await start();
    try {
      // a pause longer than the dead bound (a stalled VM, a long GC): swept as dead
      const sweepAfterSilence = async () => {
        for (let i = 0; i < 3; i++) {
          await sql`UPDATE workers SET last_seen = now() - interval '20 seconds' WHERE id = ${w.id}`.execute(t.db.db);
          if ((await sweepDeadWorkers(t.db, 2)).deadWorkers.includes(w.id)) return true;
        }
        return false;
      };
      expect(await sweepAfterSilence()).toBe(true);
      expect(await stoppedAt(w.id)).not.toBeNull();
      expect(await isLive(w.id)).toBe(false);
      // heartbeats come every 5 s
      await waitFor('a heartbeat to revive the worker', () => isLive(w.id), { timeoutMs: 15_000 });
      expect(await stoppedAt(w.id)).toBeNull();
      // revived, it is watched again: a later silence (a real death) is swept, freeing its jobs
      expect(await sweepAfterSilence()).toBe(true);
    } finally {
      await w.stop();
    }
  });
});
