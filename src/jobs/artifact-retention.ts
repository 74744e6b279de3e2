/**
 * Artifact retention: renders' files leave the store when no one asked for them lately
 * (renders.last_requested_at, render-touch.ts), so the store is bounded by a byte budget and an
 * age. Least recently requested go first. Only files of completed renders under `renders/` are
 * ever deleted: pregenerated entries are copies under `pregen/` (gone only with `pregen rm`),
 * part models under `models/`, thumbnails and chunk pieces (sweeper.ts) are not touched. A
 * render finished or requested within `keepRecentMinutes` always stays: no job in flight or
 * finished in that window loses its files (a render in flight has none yet).
 *
 * Two steps, each safe to stop at any point: expire (the render becomes `error` with
 * expired_at, keys kept: render-expiry.ts), then delete the files in batches and clear the
 * keys. A later identical request reopens the render like a failed one and renders it again.
 */
import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { clearExpiredFiles, expiredFiles, expireRenders } from './render-expiry.js';
import type { RenderArtifacts } from './render-row.js';

/** The limits, from config (RENDER_FARM_STORE_*, RENDER_FARM_ROW_RETENTION_DAYS). */
export interface StorePolicy {
  /** renders' files above this many bytes go, least recently requested first (0: no budget) */
  maxBytes: number;
  /** files not requested for this many days go (0: no age limit) */
  maxAgeDays: number;
  /** never remove files of a render finished or requested this recently */
  keepRecentMinutes: number;
  /**
   * rows are deleted after this many days (row-retention.ts), and a render row cannot go while
   * its files stay, so files idle this long go too (0: rows are kept)
   */
  rowRetentionDays: number;
}

export function storePolicy(cfg: Config): StorePolicy {
  return {
    maxBytes: cfg.storeMaxBytes,
    maxAgeDays: cfg.storeMaxAgeDays,
    keepRecentMinutes: cfg.storeKeepRecentMinutes,
    rowRetentionDays: cfg.rowRetentionDays,
  };
}

/** The age past which files go: the smaller of the two limits that are set, or null. */
export function maxIdleDays(p: StorePolicy): number | null {
  const limits = [p.maxAgeDays, p.rowRetentionDays].filter((d) => d > 0);
  return limits.length ? Math.min(...limits) : null;
}

/** A render whose files a sweep removes (or, dry, would remove). */
export interface SweptRender {
  id: string;
  cacheKey: string;
  bytes: number;
  lastRequestedAt: Date;
  reason: 'age' | 'budget';
}

export interface ArtifactSweep {
  /** renders expired in this run (dry run: that would be) */
  renders: SweptRender[];
  /** files deleted from the store (dry run: 0) */
  deletedFiles: number;
  /** bytes those renders held */
  freedBytes: number;
  /** completed renders whose size was unknown (stored before sql/0013) and is now measured */
  measured: number;
  /** the store's renders' bytes before and after */
  bytesBefore: number;
  bytesAfter: number;
}

/** Renders one sweep expires at most, in batches: a backlog (the first sweep of a full store) drains over a few runs. */
const MAX_BATCHES_PER_RUN = 20;

export interface SweepOptions {
  dryRun?: boolean;
  /** renders per statement and keys per delete call (default 1000) */
  batch?: number;
}

/** The renders' bytes and how many renders hold files: the running total kept by a trigger (sql/0013). */
export async function storedRenderBytes(db: Db): Promise<{ bytes: number; renders: number }> {
  const r = await db.db.selectFrom('store_usage').select(['render_bytes', 'render_count']).executeTakeFirst();
  return { bytes: Number(r?.render_bytes ?? 0), renders: Number(r?.render_count ?? 0) };
}

interface Candidate {
  id: string;
  cache_key: string;
  bytes: string;
  last_requested_at: Date;
  /** last_requested_at as PostgreSQL writes it: microseconds, which a JS Date would drop (keyset paging) */
  cursor: string;
}

/** Completed renders the guard allows to go, least recently requested first, after `after` (keyset paging). */
async function candidates(
  db: Db,
  p: StorePolicy,
  limit: number,
  idleBefore: number | null,
  after?: Candidate,
): Promise<Candidate[]> {
  const keep = p.keepRecentMinutes * 60;
  const rows = await sql<Candidate>`
    SELECT id, cache_key, COALESCE(artifact_bytes, 0) AS bytes, last_requested_at, last_requested_at::text AS cursor
      FROM renders
     WHERE status = 'completed'
       AND last_requested_at < now() - make_interval(secs => ${keep})
       AND (finished_at IS NULL OR finished_at < now() - make_interval(secs => ${keep}))
       ${idleBefore === null ? sql`` : sql`AND last_requested_at < now() - make_interval(secs => ${idleBefore})`}
       ${after ? sql`AND (last_requested_at, id) > (${after.cursor}::timestamptz, ${after.id}::uuid)` : sql``}
     ORDER BY last_requested_at, id
     LIMIT ${limit}`.execute(db.db);
  return rows.rows;
}

/**
 * Sizes of completed renders stored before sizes were recorded, measured from the store a
 * batch per run (so the byte budget counts them); a missing file counts 0.
 */
async function measureUnknown(db: Db, store: ArtifactStore, limit: number): Promise<number> {
  const rows = await db.db
    .selectFrom('renders')
    .select(['id', 'artifacts'])
    .where('status', '=', 'completed')
    .where('artifact_bytes', 'is', null)
    .where('artifacts', 'is not', null)
    .limit(limit)
    .execute();
  for (const r of rows) {
    const keys = Object.values((r.artifacts ?? {}) as RenderArtifacts).filter((k): k is string => !!k);
    const sizes = await Promise.all(keys.map(async (k) => (await store.stat(k))?.size ?? 0));
    await db.db
      .updateTable('renders')
      .set({ artifact_bytes: sizes.reduce((a, b) => a + b, 0) })
      .where('id', '=', r.id)
      .where('artifact_bytes', 'is', null)
      .execute();
  }
  return rows.length;
}

/** Deletes the files of expired renders, a batch per transaction (rows locked meanwhile); returns files deleted. */
export async function deleteExpiredFiles(db: Db, store: ArtifactStore, batch = 1000): Promise<number> {
  let files = 0;
  for (;;) {
    const n = await db.db.transaction().execute(async (trx) => {
      const rows = await expiredFiles(trx, batch);
      const keys = rows.flatMap((r) => Object.values(r.artifacts ?? {}).filter((k): k is string => !!k));
      for (let i = 0; i < keys.length; i += batch) await store.deleteMany(keys.slice(i, i + batch));
      await clearExpiredFiles(
        trx,
        rows.map((r) => r.id),
      );
      files += keys.length;
      return rows.length;
    });
    if (n < batch) return files;
  }
}

/** One sweep: measure, pick (age, then budget), expire, delete files. */
export async function sweepArtifacts(
  db: Db,
  store: ArtifactStore,
  p: StorePolicy,
  opts: SweepOptions = {},
): Promise<ArtifactSweep> {
  const batch = opts.batch ?? 1000;
  const measured = opts.dryRun ? 0 : await measureUnknown(db, store, Math.min(batch, 200));
  const before = await storedRenderBytes(db);
  const picked: SweptRender[] = [];
  const idle = maxIdleDays(p);

  // by age: everything idle past the limit
  if (idle !== null) {
    let after: Candidate | undefined;
    for (;;) {
      const rows = await candidates(db, p, batch, idle * 86_400, after);
      for (const r of rows)
        picked.push({
          id: r.id,
          cacheKey: r.cache_key,
          bytes: Number(r.bytes),
          lastRequestedAt: new Date(r.last_requested_at),
          reason: 'age',
        });
      if (rows.length < batch || picked.length >= batch * MAX_BATCHES_PER_RUN) break;
      after = rows.at(-1);
    }
  }
  // by budget: then the least recently requested until the rest fits
  let freed = picked.reduce((s, r) => s + r.bytes, 0);
  if (p.maxBytes > 0 && before.bytes - freed > p.maxBytes) {
    const chosen = new Set(picked.map((r) => r.id));
    let after: Candidate | undefined;
    outer: for (;;) {
      const rows = await candidates(db, p, batch, null, after);
      for (const r of rows) {
        if (before.bytes - freed <= p.maxBytes) break outer;
        if (chosen.has(r.id)) continue;
        picked.push({
          id: r.id,
          cacheKey: r.cache_key,
          bytes: Number(r.bytes),
          lastRequestedAt: new Date(r.last_requested_at),
          reason: 'budget',
        });
        freed += Number(r.bytes);
      }
      if (rows.length < batch || picked.length >= batch * MAX_BATCHES_PER_RUN) break;
      after = rows.at(-1);
    }
  }

  if (opts.dryRun)
    return {
      renders: picked,
      deletedFiles: 0,
      freedBytes: freed,
      measured,
      bytesBefore: before.bytes,
      bytesAfter: before.bytes - freed,
    };

  const expired = new Set<string>();
  for (let i = 0; i < picked.length; i += batch) {
    for (const id of await expireRenders(
      db.db,
      picked.slice(i, i + batch).map((r) => r.id),
      p.keepRecentMinutes,
    ))
      expired.add(id);
  }
  // also finishes the files of a sweep that stopped half-way
  const deletedFiles = await deleteExpiredFiles(db, store, batch);
  const swept = picked.filter((r) => expired.has(r.id));
  const freedBytes = swept.reduce((s, r) => s + r.bytes, 0);
  if (swept.length) {
    await db.db
      .updateTable('store_usage')
      .set({ swept_renders: sql`swept_renders + ${swept.length}`, swept_bytes: sql`swept_bytes + ${freedBytes}` })
      .execute();
  }
  const after = await storedRenderBytes(db);
  return { renders: swept, deletedFiles, freedBytes, measured, bytesBefore: before.bytes, bytesAfter: after.bytes };
}
