/**
 * Smoke test of bench:control-plane (the bench itself is not a test): 2 fake-stage worker
 * processes and 50 renders through the real serve and PostgreSQL; the report has its shape and
 * every render completed, split ones through the real assemble step included.
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from '../../bench/control-plane/report.js';
import { runControlPlaneBench } from '../../bench/control-plane/run.js';
import { useTestDb } from '../helpers/db.js';

const t = useTestDb();

describe('bench:control-plane', () => {
  it('runs 50 renders on 2 fake workers and reports every figure', async () => {
    const report = await runControlPlaneBench({
      workers: [2],
      concurrency: 2,
      renders: 50,
      rate: 25,
      customers: 5,
      frameMs: 2,
      repeatShare: 0.1,
      pollMs: 200,
      seedRows: 1000,
      databaseUrl: t.url,
    });
    expect(report.runs).toHaveLength(1);
    const run = report.runs[0]!;
    expect(run.renders).toBe(50);
    expect(run.refused).toEqual({});
    expect(run.failed).toBe(0);
    expect(run.completed).toBe(50);
    // the renders behind the jobs, in the database: every one completed
    const { rows } = await t.db.pool.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM renders WHERE cache_key NOT LIKE 'seed-%' GROUP BY status`,
    );
    expect(rows).toEqual([{ status: 'completed', n: run.tasks.render }]);
    expect(run.splitRenders).toBeGreaterThan(0);
    expect(run.tasks.assemble).toBe(run.splitRenders);
    expect(run.tasks.chunk).toBeGreaterThanOrEqual(2 * run.splitRenders);
    expect(run.jobsClaimedPerS).toBeGreaterThan(0);
    expect(run.claimMs.n).toBe(run.tasks.render + run.tasks.chunk);
    expect(run.claimMs.p99).toBeGreaterThanOrEqual(run.claimMs.p50);
    expect(run.submitMs.p99).toBeGreaterThan(0);
    expect(run.pollMs.n).toBeGreaterThan(0);
    expect(run.connections.maxPerWorker).toBeGreaterThan(0);
    expect(run.connections.maxPerWorker).toBeLessThanOrEqual(run.connections.poolSizePerWorker);
    expect(run.connections.maxTotal).toBeGreaterThanOrEqual(2 * run.connections.maxPerWorker);
    expect(run.dbCpuS).not.toBeNull();
    expect(report.seeded).toMatchObject({ renders: 1000, events: 5000 });
    for (const q of ['sweeperTick', 'ageing', 'top', 'health', 'submitInFlightCost'] as const)
      expect(report.queries?.[q].ms).toBeGreaterThanOrEqual(0);
    const text = formatReport(report);
    expect(text).toContain('| 2 x 2 | 50/50 |');
    expect(text).toContain('queries on 1000 renders / 5000 render_events');
  }, 240_000);
});
