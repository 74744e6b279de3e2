/** A test database ready for jobs: the graphile queue installed and the demo catalog seeded. */
import { seedDemoCatalog } from '../../src/catalog/seed-demo.js';
import { installQueue } from '../../src/jobs/queue/runner.js';
import { useTestDb, type TestDb } from './db.js';

/** This file's database with the queue and the demo catalog (useTestDb; `overrides`: its config's settings). */
export function useQueueDb(
  opts: { seed?: boolean; timeoutMs?: number; overrides?: Parameters<typeof useTestDb>[0] } = {},
): TestDb {
  return useTestDb(opts.overrides ?? {}, {
    setup: async (t) => {
      await installQueue(t.db.pool);
      if (opts.seed ?? true) await seedDemoCatalog(t.db);
    },
    timeoutMs: opts.timeoutMs ?? 60_000,
  });
}
