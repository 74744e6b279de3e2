/**
 * `render-farm cache stats`: the render cache as the database sees it (no store listing): bytes
 * and renders held (sql/0013's running total), how often a job found its render already there,
 * the least recently requested render, a breakdown by format and profile, and the limits.
 */
import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { maxIdleDays, storePolicy, type StorePolicy } from './artifact-retention.js';
import { storeUsage, type StoreUsage } from './store-usage.js';

export interface CacheGroup {
  format: string;
  profile: string;
  renders: number;
  bytes: number;
}

export interface CacheStats {
  usage: StoreUsage;
  /** completed renders (with files); `unmeasured`: stored before sizes were recorded (the sweep measures them) */
  renders: number;
  unmeasured: number;
  /** renders whose files retention removed and that were not asked for again since */
  expired: number;
  /**
   * share of the jobs kept that found their render already there (created by an earlier job):
   * null without jobs. Repeat submissions of one customer reuse one job and count once.
   */
  hitRate: number | null;
  jobs: number;
  /** least recently requested render still holding files */
  oldestRequestedAt: Date | null;
  byKind: CacheGroup[];
  policy: StorePolicy & { maxIdleDays: number | null };
}

export async function cacheStats(db: Db, cfg: Config): Promise<CacheStats> {
  const usage = await storeUsage(db, { pregen: true });
  const counts = await sql<{ renders: number; unmeasured: number; expired: number; oldest: Date | null }>`
    SELECT count(*) FILTER (WHERE status = 'completed')::int AS renders,
           count(*) FILTER (WHERE status = 'completed' AND artifact_bytes IS NULL)::int AS unmeasured,
           count(*) FILTER (WHERE status = 'error' AND expired_at IS NOT NULL)::int AS expired,
           min(last_requested_at) FILTER (WHERE status = 'completed') AS oldest
      FROM renders`.execute(db.db);
  const hits = await sql<{ jobs: number; hits: number }>`
    SELECT count(*)::int AS jobs, count(*) FILTER (WHERE j.created_at > r.created_at)::int AS hits
      FROM jobs j JOIN renders r ON r.id = j.render_id`.execute(db.db);
  const groups = await sql<{ format: string; profile: string | null; renders: number; bytes: string | null }>`
    SELECT format, request->'options'->>'profile' AS profile, count(*)::int AS renders, sum(artifact_bytes) AS bytes
      FROM renders WHERE status = 'completed'
     GROUP BY 1, 2 ORDER BY sum(artifact_bytes) DESC NULLS LAST, 1, 2`.execute(db.db);
  const c = counts.rows[0]!;
  const h = hits.rows[0]!;
  const policy = storePolicy(cfg);
  return {
    usage,
    renders: c.renders,
    unmeasured: c.unmeasured,
    expired: c.expired,
    hitRate: h.jobs ? h.hits / h.jobs : null,
    jobs: h.jobs,
    oldestRequestedAt: c.oldest,
    byKind: groups.rows.map((g) => ({
      format: g.format,
      profile: g.profile ?? '',
      renders: g.renders,
      bytes: Number(g.bytes ?? 0),
    })),
    policy: { ...policy, maxIdleDays: maxIdleDays(policy) },
  };
}

/** 1.5 GiB, 300 MiB, 12 KiB, 800 B */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} B` : `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}
