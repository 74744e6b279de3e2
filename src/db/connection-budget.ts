/**
 * How many PostgreSQL connections the farm's processes open, in one place: the pool sizes the
 * processes use and the sum `doctor` compares with max_connections (docs/operating.md, "Connection budget").
 *
 *   worker process: concurrency + 2   (a connection per job slot for its claim and bookkeeping,
 *                                      graphile-worker's LISTEN, one for heartbeat and sweeper)
 *   serve process:  SERVE_POOL_SIZE + 1 (its pool; the job-events hub's own LISTEN client)
 *   farm:           workers x (concurrency + 2) + serves x (SERVE_POOL_SIZE + 1) + RESERVED_SLACK
 *
 * A pool opens connections only as queries need them and closes idle ones after
 * 10 s (pg.Pool's idle timeout), so these are ceilings: bench:control-plane measures what is really open.
 */

/** The pool of a serve (and of `up`'s other commands); database.ts's default. */
export const SERVE_POOL_SIZE = 10;
/** For `psql`, migrations by hand, monitoring: kept free on top of the farm's own need. */
export const RESERVED_SLACK = 5;

/** Pool size of a worker process running `concurrency` jobs at once (`configured` > 0: that, RENDER_FARM_WORKER_DB_POOL). */
export function workerPoolSize(concurrency: number, configured = 0): number {
  // graphile-worker needs 2 at least: its LISTEN and one for queries
  if (configured > 0) return Math.max(2, configured);
  return Math.max(1, Math.floor(concurrency)) + 2;
}

export interface FarmShape {
  /** worker processes, all machines together */
  workers: number;
  /** jobs each worker process runs at once */
  concurrency: number;
  /** RENDER_FARM_WORKER_DB_POOL when set (> 0) */
  poolSize?: number;
  /** serve processes */
  serves: number;
}

/** Connections a farm of this shape may hold at once, at most (the formula above). */
export function farmConnections(f: FarmShape): number {
  return f.workers * workerPoolSize(f.concurrency, f.poolSize) + f.serves * (SERVE_POOL_SIZE + 1) + RESERVED_SLACK;
}

/** The formula in words, for doctor's messages and the bench's report. */
export function budgetFormula(f: FarmShape): string {
  const perWorker = f.poolSize
    ? `pool ${workerPoolSize(f.concurrency, f.poolSize)}`
    : `(concurrency ${f.concurrency} + 2)`;
  return `${f.workers} worker process(es) x ${perWorker} + ${f.serves} serve(s) x ${SERVE_POOL_SIZE + 1} + ${RESERVED_SLACK} spare = ${farmConnections(f)}`;
}
