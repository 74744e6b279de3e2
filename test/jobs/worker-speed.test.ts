/**
 * Worker speed on a real database: a figure is stored per profile and frame-size class, and the
 * planner's lookup reads only the class asked for (a 256 px sprite's s/MP never sizes a 640x360
 * video), from live workers only, with their count.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { farmSpeed, recordWorkerSpeed, speedKey } from '../../src/jobs/worker-speed.js';
import { registerWorker } from '../../src/jobs/workers-repository.js';
import { useTestDb } from '../helpers/db.js';

describe('worker speed per profile and size class', () => {
  const t = useTestDb();
  const sprite = (256 * 256) / 1e6;
  const video = (640 * 360) / 1e6;

  it('stores a sprite measurement under its class only; the video class falls back (null) until measured', async () => {
    await registerWorker(t.db, { id: 'w-slow', hostname: 'h', pid: 1, concurrency: 1, backend: {} });
    await registerWorker(t.db, { id: 'w-fast', hostname: 'h', pid: 2, concurrency: 1, backend: {} });
    // 10 frames/s at 256 px: (0.1 - 0.008) / 0.066 = 1.4 s/MP, the fault run's kind of figure
    await recordWorkerSpeed(t.db, 'w-slow', 'fast', 10, sprite);
    const stored = await t.db.db
      .selectFrom('workers')
      .select('speed')
      .where('id', '=', 'w-slow')
      .executeTakeFirstOrThrow();
    expect(Object.keys(stored.speed ?? {})).toEqual([speedKey('fast', sprite)]);
    expect(await farmSpeed(t.db, 'fast', sprite)).toEqual({ sPerMp: expect.closeTo(1.4, 1), workers: 2 });
    expect(await farmSpeed(t.db, 'fast', video)).toEqual({ sPerMp: null, workers: 2 });
    // measured at 640x360: the slowest live worker's figure sizes chunks of that class
    await recordWorkerSpeed(t.db, 'w-slow', 'fast', 12, video);
    await recordWorkerSpeed(t.db, 'w-fast', 'fast', 25, video);
    const v = await farmSpeed(t.db, 'fast', video);
    expect(v.sPerMp).toBeCloseTo((1 / 12 - 0.008) / video, 3);
    // a dead worker is neither counted nor asked
    await sql`UPDATE workers SET last_seen = now() - interval '1 hour' WHERE id = 'w-slow'`.execute(t.db.db);
    const live = await farmSpeed(t.db, 'fast', video);
    expect(live.workers).toBe(1);
    expect(live.sPerMp).toBeCloseTo((1 / 25 - 0.008) / video, 3);
  });
});
