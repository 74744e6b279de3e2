/**
 * One retention pass: artifact retention (artifact-retention.ts) first, so renders whose files
 * go can then go as rows (row-retention.ts). Run every RENDER_FARM_RETENTION_SWEEP_MINUTES by
 * the `retention` queue task (graphile-worker's crontab: one run per tick for the whole farm,
 * whichever worker takes it) and by `render-farm cache gc`.
 */
import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { storePolicy, sweepArtifacts, type ArtifactSweep } from './artifact-retention.js';
import { rowPolicy, sweepRows, type RowSweep } from './row-retention.js';

export interface RetentionRun {
  dryRun: boolean;
  artifacts: ArtifactSweep;
  rows: RowSweep;
  ms: number;
}

export async function runRetention(
  db: Db,
  store: ArtifactStore,
  cfg: Config,
  opts: { dryRun?: boolean; batch?: number } = {},
): Promise<RetentionRun> {
  const started = performance.now();
  const artifacts = await sweepArtifacts(db, store, storePolicy(cfg), opts);
  const rows = await sweepRows(db, rowPolicy(cfg), opts);
  if (!opts.dryRun) await db.db.updateTable('store_usage').set({ last_sweep_at: sql<Date>`now()` }).execute();
  return { dryRun: !!opts.dryRun, artifacts, rows, ms: Math.round(performance.now() - started) };
}

/** graphile-worker crontab line for the retention task, or undefined when the periodic sweep is off. */
export function retentionCrontab(cfg: Pick<Config, 'retentionSweepMinutes'>): string | undefined {
  const m = cfg.retentionSweepMinutes;
  if (m <= 0) return undefined;
  return `${m >= 60 ? '0 * * * *' : `*/${m} * * * *`} retention`;
}
