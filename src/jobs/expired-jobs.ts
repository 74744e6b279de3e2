/**
 * Jobs that row retention deleted (src/jobs/row-retention.ts). Job ids are random uuids, with no
 * time in them to compare, so each deleted id is kept in `expired_jobs` (sql/0013) for
 * RENDER_FARM_JOB_TOMBSTONE_DAYS: a poll of one is told it expired (404 `job_expired`), while an
 * id that never existed, or belongs to another customer, stays `job_not_found`.
 */
import { NotFoundError } from '../errors.js';
import type { Db } from '../db/database.js';

/** 404 `job_expired`: the job existed and row retention deleted it. */
export class JobExpiredError extends NotFoundError {
  constructor(jobId: string, expiredAt: Date) {
    super(
      'job_expired',
      `job ${jobId} expired: it was deleted on ${expiredAt.toISOString().slice(0, 10)} with other jobs past the retention period ` +
        '(RENDER_FARM_ROW_RETENTION_DAYS); submit the same request again for a new job',
    );
    this.name = 'JobExpiredError';
  }
}

/** The JobExpiredError for this id, when it was deleted (and, given a customer, was that customer's); else null. */
export async function expiredJobError(db: Db, jobId: string, customerId?: string): Promise<JobExpiredError | null> {
  let q = db.db.selectFrom('expired_jobs').select('expired_at').where('id', '=', jobId);
  if (customerId) q = q.where('customer_id', '=', customerId);
  const row = await q.executeTakeFirst();
  return row ? new JobExpiredError(jobId, new Date(row.expired_at)) : null;
}
