/**
 * Retrying every failed job at once (`jobs retry --failed`, the console's "Retry all failed"):
 * each failed render is retried once, through retryJob, the code a single retry runs: back to
 * queued and its render task enqueued at the customer's fair priority, as a submission does
 * (jobs of the same request share a render, so retrying it once retries them all). Cancelled
 * renders (an operator stopped them on purpose) and expired ones (retention removed their files:
 * asking again renders them) are not failures and are left alone.
 */
import { sql } from 'kysely';
import type { Environment } from '../auth/scopes.js';
import type { Db } from '../db/database.js';
import { RetryRefusedError } from './errors.js';
import { retryJob } from './jobs-repository.js';
import { CANCELLED_MESSAGE } from './render-lifecycle.js';

/** Whose failed jobs: a customer's console key its own in its environment; operators everyone's. */
export interface FailedScope {
  customerId?: string;
  environment?: Environment;
}

/** Most renders one call retries (a rerun takes the rest). */
export const MAX_RETRIED = 1000;

/** A failed render in the scope: one of its jobs (the one retried) and how many of the scope's jobs wait on it. */
export interface FailedRender {
  renderId: string;
  jobId: string;
  jobs: number;
  error: string | null;
}

const CANCELLED_PREFIX = CANCELLED_MESSAGE.slice(0, CANCELLED_MESSAGE.indexOf(':') + 1);

/** The scope's failed renders, the most recent failure first; `total` counts them all. */
export async function failedRenders(
  db: Db,
  scope: FailedScope,
  limit = MAX_RETRIED,
): Promise<{ renders: FailedRender[]; total: { renders: number; jobs: number } }> {
  const where = sql`r.status = 'error' AND r.expired_at IS NULL AND COALESCE(r.error, '') NOT LIKE ${CANCELLED_PREFIX + '%'}
    ${scope.customerId ? sql`AND j.customer_id = ${scope.customerId}` : sql``}
    ${scope.environment ? sql`AND j.environment = ${scope.environment}` : sql``}`;
  const [rows, total] = await Promise.all([
    sql<{ render_id: string; job_id: string; jobs: number; error: string | null }>`
      SELECT r.id AS render_id, (array_agg(j.id ORDER BY j.created_at))[1] AS job_id, count(*)::int AS jobs, r.error
        FROM jobs j JOIN renders r ON r.id = j.render_id
       WHERE ${where}
       GROUP BY r.id
       ORDER BY max(r.finished_at) DESC NULLS LAST, r.id
       LIMIT ${limit}`.execute(db.db),
    sql<{ renders: number; jobs: number }>`
      SELECT count(DISTINCT r.id)::int AS renders, count(*)::int AS jobs
        FROM jobs j JOIN renders r ON r.id = j.render_id
       WHERE ${where}`.execute(db.db),
  ]);
  return {
    renders: rows.rows.map((r) => ({ renderId: r.render_id, jobId: r.job_id, jobs: r.jobs, error: r.error })),
    total: total.rows[0] ?? { renders: 0, jobs: 0 },
  };
}

/** What a bulk retry did. */
export interface RetryFailedResult {
  /** renders queued again (one job of each) */
  retried: FailedRender[];
  /** renders whose retry was refused (e.g. retried meanwhile by someone else), with why */
  refused: (FailedRender & { reason: string })[];
  /** failed renders left for a rerun (past MAX_RETRIED) */
  remaining: number;
}

/** Retries the scope's failed renders, one by one (each in its own transaction, as a single retry). */
export async function retryFailed(db: Db, scope: FailedScope, limit = MAX_RETRIED): Promise<RetryFailedResult> {
  const { renders, total } = await failedRenders(db, scope, limit);
  const out: RetryFailedResult = { retried: [], refused: [], remaining: Math.max(0, total.renders - renders.length) };
  for (const f of renders) {
    try {
      if (await retryJob(db, f.jobId)) out.retried.push(f);
      else out.refused.push({ ...f, reason: `job ${f.jobId} no longer exists` });
    } catch (err) {
      if (!(err instanceof RetryRefusedError)) throw err;
      out.refused.push({ ...f, reason: err.message });
    }
  }
  return out;
}
