/** Reading jobs: by id for a customer, lists and retries for operators, waiting for a result. */
import type { Environment } from '../auth/scopes.js';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { CancelRefusedError, RetryRefusedError } from './errors.js';
import { enqueue } from './queue/add-job.js';
import { hasRenderJob } from './queue/graphile-tables.js';
import type { RenderRow } from './render-row.js';
import { VIEWED_RENDER_COLUMNS, type ViewedRender } from './job-view.js';
import { TOUCH_EVERY_S } from './render-touch.js';
import { renderChunks } from './chunk-lifecycle.js';
import { cancelRender, reopenRender } from './render-lifecycle.js';
import { renderPriority } from './fair-priority.js';
import { DEAD_AFTER_S, unlockGraphileWorkers } from './sweeper.js';
import { getWorkerState, liveWorkers } from './workers-repository.js';
import { idPrefixRange } from './job-search.js';
import { isFinal } from '../model/job-status.js';

export interface JobRecord {
  jobId: string;
  customerId: string;
  shareCode: string | null;
  createdAt: Date;
  /** the environment of the credential that submitted it */
  environment: Environment;
  render: RenderRow;
}

function baseQuery(db: Db) {
  return db.db
    .selectFrom('jobs as j')
    .innerJoin('renders as r', 'r.id', 'j.render_id')
    .selectAll('r')
    .select([
      'j.id as job_id',
      'j.customer_id as job_customer_id',
      'j.share_code as job_share_code',
      'j.created_at as job_created_at',
      'j.environment as job_environment',
    ]);
}

/** A renders row with its job's columns, as baseQuery selects it. */
type JobRow = RenderRow & {
  job_id: string;
  job_customer_id: string;
  job_share_code: string | null;
  job_created_at: Date;
  job_environment: Environment;
};

function toRecord(row: JobRow): JobRecord {
  const { job_id, job_customer_id, job_share_code, job_created_at, job_environment, ...render } = row;
  return {
    jobId: job_id,
    customerId: job_customer_id,
    shareCode: job_share_code ?? null,
    createdAt: job_created_at,
    environment: job_environment,
    render,
  };
}

/** Who may read a job: the customer that submitted it, with a credential of the same environment. */
export interface JobOwner {
  customerId: string;
  environment: Environment;
}

/** A job only its own customer, in its own environment, can see (others get null, answered as 404). */
export async function getJobForCustomer(db: Db, jobId: string, owner: JobOwner): Promise<JobRecord | null> {
  const row = await baseQuery(db)
    .where('j.id', '=', jobId)
    .where('j.customer_id', '=', owner.customerId)
    .where('j.environment', '=', owner.environment)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** A job as a poll answers it: its render's viewed columns only. */
export interface PolledJob {
  jobId: string;
  shareCode: string | null;
  createdAt: Date;
  render: ViewedRender;
}

type PolledRow = ViewedRender & { job_id: string; job_share_code: string | null; job_created_at: Date };

/**
 * The poll's one statement: the job, if it is the owner's (else null, answered as 404), and the
 * request recorded for retention when the last record is a minute old (render-touch.ts), in the
 * same round trip, so a poll is one statement whether the touch is due or not.
 */
export async function pollJob(db: Db, jobId: string, owner: JobOwner): Promise<PolledJob | null> {
  const cols = sql.join(VIEWED_RENDER_COLUMNS.map((c) => sql.ref(`r.${c}`)));
  const compiled = sql<PolledRow>`
    WITH j AS (
      SELECT ${cols}, r.id AS render_id, j.id AS job_id, j.share_code AS job_share_code, j.created_at AS job_created_at
        FROM jobs j JOIN renders r ON r.id = j.render_id
       WHERE j.id = ${jobId} AND j.customer_id = ${owner.customerId} AND j.environment = ${owner.environment}
    ),
    t AS (
      UPDATE renders SET last_requested_at = now()
       WHERE id IN (SELECT render_id FROM j) AND last_requested_at < now() - make_interval(secs => ${TOUCH_EVERY_S})
    )
    SELECT * FROM j`.compile(db.db);
  // a named (prepared) statement: PostgreSQL parses and plans it once per connection
  const { rows } = await db.pool.query<PolledRow>({
    name: 'job-poll',
    text: compiled.sql,
    values: [...compiled.parameters],
  });
  const row = rows[0];
  if (!row) return null;
  const { job_id, job_share_code, job_created_at, ...render } = row;
  return { jobId: job_id, shareCode: job_share_code ?? null, createdAt: job_created_at, render };
}

export async function getJob(db: Db, jobId: string): Promise<JobRecord | null> {
  const row = await baseQuery(db).where('j.id', '=', jobId).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** The worker process that rendered (or is rendering) a job, as its heartbeats show it now. */
export interface JobWorker {
  id: string;
  hostname: string;
  /** heartbeating within the dead bound; a processing job on a worker that is not is stuck until swept */
  alive: boolean;
}

/** The customer pregen's farm runs submit as (src/pregen/farm-executor.ts): its jobs are kind `pregen`. */
const PREGEN_CUSTOMER = 'pregen';

/** Which jobs listJobs returns; every filter is optional. */
export interface JobFilter {
  status?: string;
  /** a customer by name (operators) */
  customer?: string;
  /** a customer by id (a console session of a customer's key sees its own jobs only) */
  customerId?: string;
  environment?: Environment;
  format?: RenderRow['format'];
  /** `pregen`: the pregenerated cache's renders; `render`: everyone else's */
  kind?: 'render' | 'pregen';
  /** the start of a job id, or a share code (any case): job-search.ts */
  search?: string;
  /** keyset paging: jobs older than the job with this id (the last of the previous page) */
  before?: string;
  limit?: number;
}

/** Newest first, each with its customer's name and its render's worker (`jobs list`, the console's job list). */
export async function listJobs(
  db: Db,
  opts: JobFilter = {},
): Promise<(JobRecord & { customer: string; worker: JobWorker | null })[]> {
  let q = baseQuery(db)
    .innerJoin('customers as c', 'c.id', 'j.customer_id')
    .leftJoin('workers as w', 'w.id', 'r.worker_id')
    .select(['c.name as customer_name', 'w.hostname as worker_hostname'])
    .select(
      sql<boolean>`w.stopped_at IS NULL AND w.last_seen >= now() - make_interval(secs => ${DEAD_AFTER_S})`.as(
        'worker_alive',
      ),
    );
  if (opts.status) q = q.where('r.status', '=', opts.status as RenderRow['status']);
  if (opts.customer) q = q.where('c.name', '=', opts.customer);
  if (opts.customerId) q = q.where('j.customer_id', '=', opts.customerId);
  if (opts.environment) q = q.where('j.environment', '=', opts.environment);
  if (opts.format) q = q.where('r.format', '=', opts.format);
  if (opts.kind) q = q.where('c.name', opts.kind === 'pregen' ? '=' : '<>', PREGEN_CUSTOMER);
  if (opts.search !== undefined) {
    const text = opts.search.trim();
    const ids = idPrefixRange(text);
    q = q.where((eb) =>
      eb.or([
        eb(sql`upper(j.share_code)`, '=', text.toUpperCase()),
        ...(ids ? [eb.and([eb('j.id', '>=', ids.low), eb('j.id', '<=', ids.high)])] : []),
      ]),
    );
  }
  // by the row's own stored time: a JavaScript Date would drop its microseconds
  if (opts.before)
    q = q.where(
      sql<boolean>`(j.created_at, j.id) < (SELECT b.created_at, b.id FROM jobs b WHERE b.id = ${opts.before}::uuid)`,
    );
  const rows = await q
    .orderBy('j.created_at', 'desc')
    .orderBy('j.id', 'desc')
    .limit(opts.limit ?? 50)
    .execute();
  return rows.map((r) => {
    const { customer_name, worker_hostname, worker_alive, ...rest } = r as Record<string, unknown>;
    const record = toRecord(rest as JobRow);
    const workerId = record.render.worker_id;
    const worker = workerId
      ? { id: workerId, hostname: (worker_hostname as string | null) ?? '?', alive: worker_alive === true }
      : null;
    return { ...record, customer: customer_name as string, worker };
  });
}

/** One chunk of a split render as `jobs show` lists it. */
export interface ChunkView {
  chunk: number;
  frames: string;
  status: string;
  worker: string | null;
  attempts: number;
  /** seconds the chunk's render took (done chunks) */
  seconds: number | null;
  frames_done: number;
  error: string | null;
  /** frames [start, end), the worker's id and the chunk's times (the console's timeline) */
  start: number;
  end: number;
  worker_id: string | null;
  started_at: Date | null;
  finished_at: Date | null;
}

/** The chunks of a split render (its current plan), in frame order. */
export async function jobChunks(db: Db, renderId: string): Promise<ChunkView[]> {
  const rows = await renderChunks(db.db, renderId);
  const hosts = new Map<string, string>();
  const ids = [...new Set(rows.map((r) => r.worker_id).filter((w): w is string => !!w))];
  if (ids.length)
    for (const w of await db.db.selectFrom('workers').select(['id', 'hostname']).where('id', 'in', ids).execute())
      hosts.set(w.id, w.hostname);
  return rows.map((c) => ({
    chunk: c.idx,
    frames: `${c.start_frame}-${c.end_frame - 1}`,
    status: c.status,
    worker: c.worker_id ? `${c.worker_id} (${hosts.get(c.worker_id) ?? '?'})` : null,
    attempts: c.attempts,
    seconds: c.render_ms === null ? null : Math.round(c.render_ms / 100) / 10,
    frames_done: c.frames_done,
    error: c.error,
    start: c.start_frame,
    end: c.end_frame,
    worker_id: c.worker_id,
    started_at: c.started_at,
    finished_at: c.finished_at,
  }));
}

/**
 * Puts a failed (or, with force, a completed) render back in the queue, and frees a render
 * still marked processing whose worker is gone (its queue job would stay locked for hours).
 * Throws RetryRefusedError saying why when there is nothing to retry: a live worker is on it,
 * it is already queued, or it completed and force is off. Null when the job does not exist.
 */
export async function retryJob(db: Db, jobId: string, force = false): Promise<JobRecord | null> {
  const job = await getJob(db, jobId);
  if (!job) return null;
  const r = job.render;
  let unlock: string[] = [];
  if (r.status === 'processing' && r.chunk_plan) {
    // split: each chunk is retried on its own (and a dead worker's chunk is freed by the sweeper)
    throw new RetryRefusedError(
      `job ${jobId} is being rendered in ${r.chunk_total} chunks (${r.chunks_done ?? 0} done, ${Math.round(Number(r.progress) * 100)}%): ` +
        'nothing to retry; a chunk whose worker dies is queued again within a minute (see jobs show)',
    );
  }
  if (r.status === 'processing') {
    const worker = r.worker_id ? await getWorkerState(db, r.worker_id) : null;
    if (worker?.alive) {
      throw new RetryRefusedError(
        `job ${jobId} is being rendered by worker ${worker.id} (${Math.round(Number(r.progress) * 100)}% done, last heartbeat ${worker.silentSeconds} s ago): ` +
          'nothing to retry; if that worker dies, the render is queued again within a minute',
      );
    }
    // its worker is gone: free the queue job it still holds
    unlock = [...new Set([r.locked_by, ...(worker?.graphileIds ?? [])].filter((x): x is string => !!x))];
  } else if (r.status === 'queued') {
    if (await hasRenderJob(db.db, r.id)) {
      const live = (await liveWorkers(db)).length;
      throw new RetryRefusedError(
        `job ${jobId} is already queued, waiting for a worker (${live} live${live ? '' : ': start one with "render-farm worker"'})`,
      );
    }
    // queued without a queue job: enqueue it again below
  } else if (r.status === 'completed' && !force) {
    throw new RetryRefusedError(`job ${jobId} completed; pass --force to render it again`);
  }
  await db.db.transaction().execute(async (trx) => {
    const row = await reopenRender(trx, r.id, r.status);
    if (!row)
      throw new RetryRefusedError(
        `job ${jobId} changed state while retrying (it was ${r.status}); run the command again`,
      );
    // unlocked first, so that re-adding the keyed job updates it instead of queueing a second run
    await unlockGraphileWorkers(trx, unlock);
    await enqueue(
      trx,
      'render',
      { renderId: row.id },
      { priority: await renderPriority(trx, job.customerId, Number(r.estimated_cost_s ?? 0), r.id) },
    );
  });
  return getJob(db, jobId);
}

/**
 * Cancels a job's render (`jobs cancel`, the console, POST /render-build/{jobId}/cancel): a
 * queued one at once, a processing one is stopped by its worker at its next progress write
 * (render-lifecycle.ts cancelRender). A render is shared by every job of the same request:
 * with `owner` (a customer's credential) the job must be that customer's and no other
 * customer's job may wait on the render; operators (no owner) cancel it for everyone. Throws
 * CancelRefusedError saying why it cannot; null when no such job (for that owner).
 */
export async function cancelJob(db: Db, jobId: string, owner?: JobOwner): Promise<JobRecord | null> {
  const job = owner ? await getJobForCustomer(db, jobId, owner) : await getJob(db, jobId);
  if (!job) return null;
  const s = job.render.status;
  if (isFinal(s)) {
    throw new CancelRefusedError(
      `job ${jobId} has already ended (${s}): nothing to cancel${s === 'completed' ? '; its files stay' : ''}`,
    );
  }
  if (owner) {
    if (await sharedWithOthers(db, job.render.id, owner.customerId)) {
      throw new CancelRefusedError(
        `job ${jobId} shares its render with another customer's identical request: only an operator can cancel it (render-farm jobs cancel)`,
      );
    }
  }
  if (!(await cancelRender(db.db, job.render.id)))
    throw new CancelRefusedError(`job ${jobId} ended while cancelling it; see its status`);
  return owner ? getJobForCustomer(db, jobId, owner) : getJob(db, jobId);
}

/** Whether another customer's job waits on the render too: then only an operator may cancel it. */
export async function sharedWithOthers(db: Db, renderId: string, customerId: string): Promise<boolean> {
  const others = await db.db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('render_id', '=', renderId)
    .where('customer_id', '<>', customerId)
    .executeTakeFirstOrThrow();
  return Number(others.n) > 0;
}

/**
 * Polls until the job is completed or failed, the bound passes, or the signal aborts.
 * Polling (every 250 ms) keeps this free of LISTEN connections; it is for few, trusted callers.
 */
export async function waitForJob(
  db: Db,
  jobId: string,
  owner: JobOwner,
  boundMs: number,
  signal?: AbortSignal,
): Promise<JobRecord> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const job = await getJobForCustomer(db, jobId, owner);
    if (!job) throw new Error(`job ${jobId} vanished`);
    const s = job.render.status;
    if (isFinal(s) || Date.now() >= deadline || signal?.aborted) return job;
    await new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, deadline - Date.now()))));
  }
}
