/**
 * A database that has run for months: many finished renders (each with its job and five
 * render_events), spread over the last 60 days, written with INSERT ... SELECT generate_series
 * (a million rows in seconds, no round trips). Then the periodic and operator queries timed on
 * it: one sweeper tick (dead workers, abandoned chunk pieces, ageing), ageing alone, the `top`
 * snapshot, GET /health, and the in-flight cost a submit computes for its customer.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { customerInFlightCost } from '../../src/jobs/fair-priority.js';
import { ageWaitingJobs } from '../../src/jobs/fair-priority.js';
import { sweepDeadWorkers } from '../../src/jobs/sweeper.js';
import { abandonedChunks } from '../../src/jobs/chunk-lifecycle.js';
import { farmSnapshot } from '../../src/top/farm-snapshot.js';

/** render_events per seeded render (queued, processing, two progress, completed) */
export const EVENTS_PER_RENDER = 5;

export async function seedRows(
  db: Db,
  customerIds: readonly string[],
  renders: number,
): Promise<{ renders: number; events: number; seconds: number }> {
  const t = performance.now();
  await db.pool.query(
    `INSERT INTO renders (id, cache_key, status, format, request, progress, artifacts, error, estimated_cost_s, render_ms, attempts,
                          created_at, started_at, finished_at, updated_at)
     SELECT gen_random_uuid(), 'seed-' || g,
            CASE WHEN g % 50 = 0 THEN 'error' ELSE 'completed' END,
            CASE WHEN g % 3 = 0 THEN 'video' ELSE 'sprite' END,
            jsonb_build_object('parts', jsonb_build_object('cpu', 'seed'), 'options',
              jsonb_build_object('width', 256, 'height', 256, 'profile', 'fast', 'frames', CASE WHEN g % 3 = 0 THEN 120 ELSE 72 END)),
            1, CASE WHEN g % 50 = 0 THEN NULL ELSE jsonb_build_object('screenshot', 'renders/seed-' || g || '/screenshot.webp') END,
            CASE WHEN g % 50 = 0 THEN 'seeded failure' END, 3, 2500, 1,
            x.t, x.t + interval '1 s', x.t + interval '4 s', x.t + interval '4 s'
       FROM generate_series(1, $1::int) g, LATERAL (SELECT now() - interval '1 hour' - (g::float / $1::int) * interval '60 days' AS t) x`,
    [renders],
  );
  await db.pool.query(
    `INSERT INTO jobs (customer_id, render_id, created_at)
     SELECT ($1::uuid[])[1 + (abs(hashtext(r.cache_key)) % array_length($1::uuid[], 1))], r.id, r.created_at
       FROM renders r WHERE r.cache_key LIKE 'seed-%'`,
    [customerIds],
  );
  await db.pool.query(
    `INSERT INTO render_events (render_id, kind, status, progress, created_at)
     SELECT r.id, e.kind, e.status, e.progress, r.created_at + e.k * interval '1 s'
       FROM renders r,
            (VALUES (0, 'status', 'queued', 0), (1, 'status', 'processing', 0), (2, 'progress', 'processing', 0.3),
                    (3, 'progress', 'processing', 0.7), (4, 'status', 'completed', 1)) AS e(k, kind, status, progress)
      WHERE r.cache_key LIKE 'seed-%'`,
  );
  await db.pool.query('ANALYZE renders; ANALYZE jobs; ANALYZE render_events; ANALYZE render_chunks');
  return { renders, events: renders * EVENTS_PER_RENDER, seconds: (performance.now() - t) / 1000 };
}

export interface QueryTiming {
  /** median of the runs, ms */
  ms: number;
  runs: number;
}

export type QueryTimings = Record<
  'sweeperTick' | 'ageing' | 'top' | 'topWithout0014' | 'health' | 'submitInFlightCost',
  QueryTiming
>;

/** The indexes of sql/0014 (the fix the numbers called for: `top` scanned every render). */
export const FIX_0014_INDEXES = ['renders_finished', 'renders_failed'];

class Rollback<T> {
  constructor(readonly value: T) {}
}

/** Runs `fn` on a transaction in which `indexes` are dropped, then rolls back: the query plans without them, same data, same run. */
async function withoutIndexes<T>(db: Db, indexes: readonly string[], fn: (d: Db) => Promise<T>): Promise<T> {
  try {
    await db.db.transaction().execute(async (trx) => {
      for (const name of indexes) await sql`DROP INDEX ${sql.id(name)}`.execute(trx);
      throw new Rollback(await fn({ ...db, db: trx }));
    });
  } catch (err) {
    if (err instanceof Rollback) return err.value as T;
    throw err;
  }
  throw new Error('unreachable: the transaction always rolls back');
}

async function timed(runs: number, fn: () => Promise<unknown>): Promise<QueryTiming> {
  await fn(); // warm: plans and buffers
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { ms: Math.round(ms[Math.floor(ms.length / 2)]! * 10) / 10, runs };
}

/** Times each query `runs` times (median) on the database as it is now. */
export async function timeQueries(db: Db, baseUrl: string, customerId: string, runs = 5): Promise<QueryTimings> {
  return {
    // one tick of startSweeper (sweeper.ts), its three statements in turn
    sweeperTick: await timed(runs, async () => {
      await sweepDeadWorkers(db);
      await abandonedChunks(db.db);
      await ageWaitingJobs(db.db);
    }),
    ageing: await timed(runs, () => ageWaitingJobs(db.db)),
    top: await timed(runs, () => farmSnapshot(db)),
    // before the fix, same data: sql/0014's indexes dropped in a transaction that rolls back
    topWithout0014: await withoutIndexes(db, FIX_0014_INDEXES, (d) => timed(runs, () => farmSnapshot(d))),
    health: await timed(runs, async () => {
      const r = await fetch(`${baseUrl}/health`);
      if (!r.ok) throw new Error(`/health answered ${r.status}`);
      await r.json();
    }),
    submitInFlightCost: await timed(runs, () => customerInFlightCost(db.db, customerId)),
  };
}
