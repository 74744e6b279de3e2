/** Reading jobs: by id for a customer, lists and retries for operators, waiting for a result. */
import type { Db } from '../db/database.js';
import { enqueueRender } from './queue.js';
import type { RenderRow } from './render-row.js';

export interface JobRecord {
  jobId: string;
  customerId: string;
  shareCode: string | null;
  createdAt: Date;
  render: RenderRow;
}

function baseQuery(db: Db) {
  return db.db
    .selectFrom('jobs as j')
    .innerJoin('renders as r', 'r.id', 'j.render_id')
    .selectAll('r')
    .select(['j.id as job_id', 'j.customer_id as job_customer_id', 'j.share_code as job_share_code', 'j.created_at as job_created_at']);
}

/** A renders row with its job's columns, as baseQuery selects it. */
type JobRow = RenderRow & { job_id: string; job_customer_id: string; job_share_code: string | null; job_created_at: Date };

function toRecord(row: JobRow): JobRecord {
  const { job_id, job_customer_id, job_share_code, job_created_at, ...render } = row;
  return { jobId: job_id, customerId: job_customer_id, shareCode: job_share_code ?? null, createdAt: job_created_at, render };
}

/** A job only its own customer can see (others get null, answered as 404). */
export async function getJobForCustomer(db: Db, jobId: string, customerId: string): Promise<JobRecord | null> {
  const row = await baseQuery(db).where('j.id', '=', jobId).where('j.customer_id', '=', customerId).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function getJob(db: Db, jobId: string): Promise<JobRecord | null> {
  const row = await baseQuery(db).where('j.id', '=', jobId).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function listJobs(db: Db, opts: { status?: string; limit?: number } = {}): Promise<(JobRecord & { customer: string })[]> {
  let q = baseQuery(db).innerJoin('customers as c', 'c.id', 'j.customer_id').select('c.name as customer_name');
  if (opts.status) q = q.where('r.status', '=', opts.status as RenderRow['status']);
  const rows = await q.orderBy('j.created_at', 'desc').limit(opts.limit ?? 50).execute();
  return rows.map(({ customer_name, ...rest }) => ({ ...toRecord(rest), customer: customer_name }));
}

/** Puts a failed (or, with force, any finished) render back in the queue. */
export async function retryJob(db: Db, jobId: string, force = false): Promise<JobRecord | null> {
  const job = await getJob(db, jobId);
  if (!job) return null;
  const allowed: RenderRow['status'][] = force ? ['error', 'completed'] : ['error'];
  await db.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('renders')
      .set({ status: 'queued', error: null, progress: 0, attempts: 0, finished_at: null, updated_at: new Date() })
      .where('id', '=', job.render.id)
      .where('status', 'in', allowed)
      .returning('id')
      .executeTakeFirst();
    if (row) await enqueueRender(trx, row.id);
  });
  return getJob(db, jobId);
}

/**
 * Polls until the job is completed or failed, the bound passes, or the signal aborts.
 * Polling (every 250 ms) keeps this free of LISTEN connections; it is for few, trusted callers.
 */
export async function waitForJob(db: Db, jobId: string, customerId: string, boundMs: number, signal?: AbortSignal): Promise<JobRecord> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const job = await getJobForCustomer(db, jobId, customerId);
    if (!job) throw new Error(`job ${jobId} vanished`);
    const s = job.render.status;
    if (s === 'completed' || s === 'error' || Date.now() >= deadline || signal?.aborted) return job;
    await new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, deadline - Date.now()))));
  }
}
