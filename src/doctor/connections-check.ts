/**
 * Doctor, part of the postgres check: is PostgreSQL's max_connections enough for the farm?
 * With RENDER_FARM_EXPECTED_WORKERS set, the whole farm's budget (db/connection-budget.ts) is
 * compared with max_connections; without it, the slots free now with one more worker process
 * of this configuration's concurrency. A shortfall is a WARN with the formula and the fix: a
 * short budget shows up later as workers waiting at start (53300 too many clients).
 */
import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { budgetFormula, farmConnections, workerPoolSize } from '../db/connection-budget.js';
import type { CheckOutcome } from './check.js';

export interface ConnectionStats {
  maxConnections: number;
  /** kept for superusers (superuser_reserved_connections + reserved_connections) */
  reserved: number;
  /** connections open now, every database */
  inUse: number;
}

export async function readConnectionStats(db: Db): Promise<ConnectionStats> {
  const { rows } = await sql<{ max: string; su: string; reserved: string | null; used: number }>`
    SELECT current_setting('max_connections') AS max, current_setting('superuser_reserved_connections') AS su,
           current_setting('reserved_connections', true) AS reserved,
           (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend') AS used`.execute(db.db);
  const r = rows[0]!;
  return { maxConnections: Number(r.max), reserved: Number(r.su) + Number(r.reserved ?? 0), inUse: r.used };
}

/** The finding for these numbers (pure): null when the budget fits, else the WARN. */
export function connectionFinding(
  cfg: Pick<Config, 'workerConcurrency' | 'expectedWorkers' | 'workerDbPool'>,
  s: ConnectionStats,
): { detail: string; fix: string } | null {
  const usable = s.maxConnections - s.reserved;
  const perWorker = workerPoolSize(cfg.workerConcurrency, cfg.workerDbPool);
  if (cfg.expectedWorkers > 0) {
    const shape = {
      workers: cfg.expectedWorkers,
      concurrency: cfg.workerConcurrency,
      poolSize: cfg.workerDbPool,
      serves: 1,
    };
    const need = farmConnections(shape);
    if (need <= usable) return null;
    return {
      detail: `max_connections ${s.maxConnections} (${usable} for the farm) is below what RENDER_FARM_EXPECTED_WORKERS needs: ${budgetFormula(shape)}`,
      fix: `raise max_connections to at least ${need + s.reserved} (ALTER SYSTEM SET max_connections = ${need + s.reserved}; then restart PostgreSQL), or run fewer worker processes or a lower concurrency`,
    };
  }
  const free = usable - s.inUse;
  if (free >= perWorker) return null;
  return {
    detail: `${Math.max(0, free)} connection(s) free of max_connections ${s.maxConnections} (${s.inUse} in use, ${s.reserved} reserved): one worker process needs ${cfg.workerDbPool ? 'RENDER_FARM_WORKER_DB_POOL' : `concurrency ${cfg.workerConcurrency} + 2`} = ${perWorker}`,
    fix: `raise max_connections (ALTER SYSTEM SET max_connections = ...; then restart PostgreSQL) to workers x (concurrency + 2) + serves x 11 + 5, or stop idle clients; set RENDER_FARM_EXPECTED_WORKERS to check the whole farm`,
  };
}

/** The finding for the database `db` reaches now. */
export async function checkConnections(
  cfg: Config,
  db: Db,
): Promise<{ stats: ConnectionStats; perWorker: number; finding: ReturnType<typeof connectionFinding> }> {
  const stats = await readConnectionStats(db);
  return {
    stats,
    perWorker: workerPoolSize(cfg.workerConcurrency, cfg.workerDbPool),
    finding: connectionFinding(cfg, stats),
  };
}

/** Folds the finding into the postgres check's outcome (an OK becomes a WARN; a worse one stays). */
export function withConnections(outcome: CheckOutcome, c: Awaited<ReturnType<typeof checkConnections>>): CheckOutcome {
  const data = { ...outcome.data, connections: { ...c.stats, perWorker: c.perWorker } };
  if (!c.finding || outcome.status !== 'ok') return { ...outcome, data };
  return { status: 'warn', detail: `${outcome.detail}; ${c.finding.detail}`, fix: c.finding.fix, data };
}
