/**
 * graphile-worker plumbing: its schema, and transactional enqueueing (tasks/add-job.ts) so a
 * render row and its queue job commit together (or not at all).
 */
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import { addJob, addJobs } from './tasks/add-job.js';
import { taskSpec } from './tasks/task-spec.js';

export const RENDER_TASK = 'render';
/** the thumbnail task's name (its spec and queue side: thumbnail-jobs.ts) */
export const THUMBNAIL_TASK_NAME = 'thumbnail';
/** The render task's name and payload, shared by its handler (tasks/render.ts) and enqueueRender. */
export const renderTaskSpec = taskSpec(RENDER_TASK, z.object({ renderId: z.string().uuid() }));
/** A chunk of a split render (tasks/render-chunk.ts): frames of one plan's range `idx`. */
export const renderChunkTaskSpec = taskSpec('render-chunk', z.object({ renderId: z.string().uuid(), plan: z.string().uuid(), idx: z.number().int().min(0) }));
/** Joins a split render's chunks into its files (tasks/render-assemble.ts). */
export const renderAssembleTaskSpec = taskSpec('render-assemble', z.object({ renderId: z.string().uuid(), plan: z.string().uuid() }));
/**
 * Assembling is a short ffmpeg copy / sharp encode that frees a finished result: it goes
 * before any render work waiting.
 */
export const ASSEMBLE_PRIORITY = 0;
/** attempts before a render is marked failed (transient failures retry with backoff) */
export const MAX_ATTEMPTS = 3;

/** Installs or upgrades graphile-worker's schema (idempotent; safe from many processes). */
export async function installQueue(pool: pg.Pool): Promise<void> {
  const gw = await import('graphile-worker');
  await gw.runMigrations({ pgPool: pool, logger: quietLogger(gw.Logger) });
}

/** The queue job of a render is keyed by it, so re-adding one updates it instead of doubling it. */
export function renderJobKey(renderId: string): string {
  return `render:${renderId}`;
}

/** Queues a render's job; `priority` from fair-priority.ts (lower runs first). */
export async function enqueueRender(trx: Kysely<Database>, renderId: string, priority = 0): Promise<void> {
  await addJob(trx, renderTaskSpec, { renderId }, { jobKey: renderJobKey(renderId), maxAttempts: MAX_ATTEMPTS, priority });
}

/** Queues the chunks of a split render, at the priority its render job had (fair-priority.ts). */
export async function enqueueChunks(trx: Kysely<Database>, renderId: string, plan: string, idxs: readonly number[], priority: number): Promise<void> {
  await addJobs(
    trx,
    renderChunkTaskSpec,
    idxs.map((idx) => ({ payload: { renderId, plan, idx }, jobKey: `chunk:${plan}:${idx}`, maxAttempts: MAX_ATTEMPTS, priority })),
  );
}

/** Queues the assembly of a split render (by the transaction that completed its last chunk). */
export async function enqueueAssemble(trx: Kysely<Database>, renderId: string, plan: string): Promise<void> {
  await addJob(trx, renderAssembleTaskSpec, { renderId, plan }, { jobKey: `assemble:${plan}`, maxAttempts: MAX_ATTEMPTS, priority: ASSEMBLE_PRIORITY });
}

/** Whether the render has a queue job (waiting, or locked by a worker). */
export async function hasQueueJob(db: Kysely<Database>, renderId: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM graphile_worker.jobs WHERE key = ${renderJobKey(renderId)}`.execute(db);
  return rows.length > 0;
}

/** Counts of one kind of queued work. */
export interface KindCounts {
  queued: number;
  processing: number;
  /** queue jobs that used up their attempts (graphile-worker keeps them; thumbnails only, counted in parts) */
  failed?: number;
}

/** Queue depth for /health and metrics: renders (top level, as before) and every kind of job. */
export interface QueueCounts {
  queued: number;
  processing: number;
  by_kind: { render: KindCounts; thumbnail: KindCounts };
  /** frame-range chunks of split renders (those renders count once under render.processing) */
  chunks: KindCounts;
}

/** Counts for /health and metrics: renders from their rows, thumbnails from graphile-worker's jobs. */
export async function queueCounts(db: Kysely<Database>): Promise<QueueCounts> {
  const rows = await db
    .selectFrom('renders')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('status', 'in', ['queued', 'processing'])
    .groupBy('status')
    .execute();
  const get = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  const render = { queued: get('queued'), processing: get('processing') };
  return { ...render, by_kind: { render, thumbnail: await thumbnailCounts(db) }, chunks: await chunkCounts(db) };
}

/** Chunks of the current plans of processing renders, by state. */
async function chunkCounts(db: Kysely<Database>): Promise<KindCounts> {
  const rows = await db
    .selectFrom('render_chunks as c')
    .innerJoin('renders as r', (j) => j.onRef('r.id', '=', 'c.render_id').onRef('r.chunk_plan', '=', 'c.plan'))
    .select(['c.status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('r.status', '=', 'processing')
    .where('c.status', 'in', ['queued', 'processing'])
    .groupBy('c.status')
    .execute();
  const get = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { queued: get('queued'), processing: get('processing') };
}

/**
 * SQL: the part ids a thumbnail job carries, one row each (a set-returning expression over
 * graphile's `_private_jobs` as `pj`): a batch's `partIds`, or the one `partId` of a job queued
 * before thumbnails were batched.
 */
export const THUMBNAIL_JOB_PART_IDS = sql<string>`json_array_elements_text(COALESCE(pj.payload->'partIds', json_build_array(pj.payload->>'partId')))`;
/** SQL: how many parts a thumbnail job (`pj`) carries. */
export const THUMBNAIL_JOB_PART_COUNT = sql<number>`COALESCE(json_array_length(pj.payload->'partIds'), 1)`;

/**
 * Thumbnail jobs live only in graphile-worker's table (no row of ours), so they are counted
 * there, in parts (a job is a batch of parts): queued and failed parts are those of waiting and
 * failed jobs; processing counts every part of a running batch, done or not, until it completes.
 */
async function thumbnailCounts(db: Kysely<Database>): Promise<KindCounts> {
  const { rows } = await sql<{ queued: string | null; processing: string | null; failed: string | null }>`
    SELECT sum(${THUMBNAIL_JOB_PART_COUNT}) FILTER (WHERE pj.locked_at IS NULL AND pj.attempts < pj.max_attempts) AS queued,
           sum(${THUMBNAIL_JOB_PART_COUNT}) FILTER (WHERE pj.locked_at IS NOT NULL) AS processing,
           sum(${THUMBNAIL_JOB_PART_COUNT}) FILTER (WHERE pj.locked_at IS NULL AND pj.attempts >= pj.max_attempts) AS failed
    FROM graphile_worker._private_jobs pj JOIN graphile_worker._private_tasks t ON t.id = pj.task_id
    WHERE t.identifier = ${THUMBNAIL_TASK_NAME}`
    .execute(db)
    // no queue schema yet (nothing was ever queued): nothing waits
    .catch((err: { code?: string }) => {
      if (err.code === '3F000' || err.code === '42P01') return { rows: [] };
      throw err;
    });
  const r = rows[0];
  return { queued: Number(r?.queued ?? 0), processing: Number(r?.processing ?? 0), failed: Number(r?.failed ?? 0) };
}

/**
 * What graphile-worker prints during every database outage: its LISTEN client's reconnect
 * errors (a burst of them), and its locked-job reset, which it retries at its normal 8-10 min
 * interval: "try again in 490144ms" reads like a backoff of the worker, but jobs are still
 * polled every second.
 */
const OUTAGE_NOISE = /^(?:Error with notify listener|Error occurred attempting to UNLISTEN|Failed to reset locked)/;
const OUTAGE_NOISE_EVERY_MS = 60_000;
/** shared by every runner of the process (render worker, webhook deliveries): one line per outage */
let outageNoiseAt = -Infinity;

/**
 * graphile-worker's logger, silenced below warnings (ours logs job events). Its outage noise
 * is written at most once a minute: an outage (or a restart of the embedded server) otherwise
 * prints a dozen lines, while the heartbeat and the API already report it once. `skip`: more
 * messages to drop.
 */
export function quietLogger(LoggerClass: typeof import('graphile-worker').Logger, skip: (message: string) => boolean = () => false): import('graphile-worker').Logger {
  return new LoggerClass(() => (level, message) => {
    if ((level !== 'error' && level !== 'warning') || skip(message)) return;
    if (OUTAGE_NOISE.test(message)) {
      if (Date.now() - outageNoiseAt < OUTAGE_NOISE_EVERY_MS) return;
      outageNoiseAt = Date.now();
    }
    process.stderr.write(`[graphile-worker] ${level}: ${message}\n`);
  });
}
