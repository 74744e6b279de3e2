/**
 * Row retention: jobs, renders, chunks, events and webhook deliveries older than
 * RENDER_FARM_ROW_RETENTION_DAYS are deleted, a small batch per statement (each its own short
 * transaction, so no long lock and no huge WAL burst), looping until a batch comes back short.
 *
 * - jobs: created before the cutoff, their render final; each id is kept in `expired_jobs`
 *   (expired-jobs.ts) so a poll answers 404 `job_expired`. Their webhook deliveries go with them.
 * - renders: final, without files (artifact retention expires files idle as long first), not
 *   requested since the cutoff, no job left, no chunk pieces left to sweep.
 * - render_chunks, render_events, webhook_deliveries: of rows kept above, the old ones.
 * - expired_jobs: after RENDER_FARM_JOB_TOMBSTONE_DAYS.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';

export interface RowPolicy {
  /** 0: rows are kept */
  rowRetentionDays: number;
  /** 0: tombstones are kept */
  jobTombstoneDays: number;
}

export function rowPolicy(cfg: Config): RowPolicy {
  return { rowRetentionDays: cfg.rowRetentionDays, jobTombstoneDays: cfg.jobTombstoneDays };
}

/** Rows deleted (dry run: that would be), by table. */
export interface RowSweep {
  jobs: number;
  renders: number;
  chunks: number;
  events: number;
  deliveries: number;
  tombstones: number;
  /** statements run (dry run: 0) */
  statements: number;
}

const interval = (days: number) => sql`make_interval(secs => ${days * 86_400})`;

/** Runs `del` (a statement deleting at most `batch` rows and selecting how many as `n`) until it deletes fewer. */
async function drain(
  db: Db,
  del: () => RawBuilder<{ n: number }>,
  batch: number,
  counter: { statements: number },
): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await del().execute(db.db);
    counter.statements++;
    const n = r.rows[0]?.n ?? 0;
    total += n;
    if (n < batch) return total;
  }
}

/** `DELETE ... RETURNING 1` as a statement selecting how many rows it deleted. */
const deleted = (del: RawBuilder<unknown>) => sql<{ n: number }>`WITH d AS (${del}) SELECT count(*)::int AS n FROM d`;

async function count(db: Db, q: RawBuilder<unknown>): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${q}) q`.execute(db.db);
  return r.rows[0]?.n ?? 0;
}

/** One pass over every table; `batch` rows per statement (default 1000). */
export async function sweepRows(
  db: Db,
  p: RowPolicy,
  opts: { dryRun?: boolean; batch?: number } = {},
): Promise<RowSweep> {
  const batch = opts.batch ?? 1000;
  const out: RowSweep = { jobs: 0, renders: 0, chunks: 0, events: 0, deliveries: 0, tombstones: 0, statements: 0 };
  const tombstoneCut = p.jobTombstoneDays > 0 ? interval(p.jobTombstoneDays) : null;
  if (p.rowRetentionDays <= 0) {
    if (tombstoneCut) out.tombstones = await tombstones(db, tombstoneCut, batch, out, opts.dryRun);
    return out;
  }
  const cut = interval(p.rowRetentionDays);

  const oldJobs = (limit: number | null) => sql`
    SELECT j.id, j.customer_id FROM jobs j JOIN renders r ON r.id = j.render_id
     WHERE j.created_at < now() - ${cut} AND r.status IN ('completed', 'error')
     ORDER BY j.created_at ${limit === null ? sql`` : sql`LIMIT ${limit}`}`;
  const oldRenders = (limit: number | null) => sql`
    SELECT r.id FROM renders r
     WHERE r.status = 'error' AND r.artifacts IS NULL
       AND r.last_requested_at < now() - ${cut} AND COALESCE(r.finished_at, r.created_at) < now() - ${cut}
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.render_id = r.id)
       AND NOT EXISTS (SELECT 1 FROM render_chunks c WHERE c.render_id = r.id AND c.pieces IS NOT NULL)
     ORDER BY r.status, r.last_requested_at ${limit === null ? sql`` : sql`LIMIT ${limit}`}`;
  const oldChunks = (limit: number | null) => sql`
    SELECT render_id, plan, idx FROM render_chunks
     WHERE updated_at < now() - ${cut} AND pieces IS NULL AND status IN ('done', 'error')
     ORDER BY updated_at ${limit === null ? sql`` : sql`LIMIT ${limit}`}`;
  const oldDeliveries = (limit: number | null) => sql`
    SELECT id FROM webhook_deliveries WHERE created_at < now() - ${cut} AND status <> 'pending'
     ORDER BY created_at ${limit === null ? sql`` : sql`LIMIT ${limit}`}`;

  if (opts.dryRun) {
    out.jobs = await count(db, oldJobs(null));
    // renders whose jobs would all go first are not counted: a dry run shows the next pass's lower bound
    out.renders = await count(db, oldRenders(null));
    out.chunks = await count(db, oldChunks(null));
    out.events = await count(db, sql`SELECT 1 FROM render_events WHERE created_at < now() - ${cut}`);
    out.deliveries = await count(db, oldDeliveries(null));
    if (tombstoneCut) out.tombstones = await tombstones(db, tombstoneCut, batch, out, true);
    return out;
  }

  out.jobs = await drain(
    db,
    () => sql<{ n: number }>`
      WITH gone AS (DELETE FROM jobs WHERE id IN (SELECT id FROM (${oldJobs(batch)}) o) RETURNING id, customer_id),
      kept AS (INSERT INTO expired_jobs (id, customer_id) SELECT id, customer_id FROM gone ON CONFLICT (id) DO NOTHING)
      SELECT count(*)::int AS n FROM gone`,
    batch,
    out,
  );
  out.renders = await drain(
    db,
    () => deleted(sql`DELETE FROM renders WHERE id IN (SELECT id FROM (${oldRenders(batch)}) o) RETURNING 1`),
    batch,
    out,
  );
  out.chunks = await drain(
    db,
    () =>
      deleted(
        sql`DELETE FROM render_chunks WHERE (render_id, plan, idx) IN (SELECT render_id, plan, idx FROM (${oldChunks(batch)}) o) RETURNING 1`,
      ),
    batch,
    out,
  );
  out.events = await oldEvents(db, cut, batch, out);
  out.deliveries = await drain(
    db,
    () =>
      deleted(sql`DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM (${oldDeliveries(batch)}) o) RETURNING 1`),
    batch,
    out,
  );
  if (tombstoneCut) out.tombstones = await tombstones(db, tombstoneCut, batch, out, false);
  const total = out.jobs + out.renders + out.chunks + out.events + out.deliveries + out.tombstones;
  if (total)
    await db.db
      .updateTable('store_usage')
      .set({ rows_deleted: sql`rows_deleted + ${total}` })
      .execute();
  return out;
}

/**
 * render_events ids grow with time, so the oldest rows are the first by id: each statement
 * takes the `batch` lowest ids (a primary-key range, never a scan of the table for old rows)
 * and deletes those older than the cutoff; it stops at the first batch holding a newer one.
 */
async function oldEvents(
  db: Db,
  cut: RawBuilder<unknown>,
  batch: number,
  counter: { statements: number },
): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await sql<{ n: number; more: boolean }>`
      WITH b AS (SELECT id, created_at FROM render_events ORDER BY id LIMIT ${batch}),
      d AS (DELETE FROM render_events e USING b WHERE e.id = b.id AND b.created_at < now() - ${cut} RETURNING 1)
      SELECT (SELECT count(*)::int FROM d) AS n,
             (SELECT count(*) = ${batch} AND bool_and(created_at < now() - ${cut}) FROM b) AS more`.execute(db.db);
    counter.statements++;
    total += r.rows[0]?.n ?? 0;
    if (!r.rows[0]?.more) return total;
  }
}

async function tombstones(
  db: Db,
  cut: RawBuilder<unknown>,
  batch: number,
  counter: { statements: number },
  dryRun?: boolean,
): Promise<number> {
  if (dryRun) return count(db, sql`SELECT 1 FROM expired_jobs WHERE expired_at < now() - ${cut}`);
  return drain(
    db,
    () =>
      deleted(
        sql`DELETE FROM expired_jobs WHERE id IN (SELECT id FROM expired_jobs WHERE expired_at < now() - ${cut} ORDER BY expired_at LIMIT ${batch}) RETURNING 1`,
      ),
    batch,
    counter,
  );
}
