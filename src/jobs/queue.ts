/**
 * graphile-worker plumbing: its schema, and transactional enqueueing (tasks/add-job.ts) so a
 * render row and its queue job commit together (or not at all).
 */
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import { addJob } from './tasks/add-job.js';
import { taskSpec } from './tasks/task-spec.js';

export const RENDER_TASK = 'render';
/** The render task's name and payload, shared by its handler (tasks/render.ts) and enqueueRender. */
export const renderTaskSpec = taskSpec(RENDER_TASK, z.object({ renderId: z.string().uuid() }));
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

/** Whether the render has a queue job (waiting, or locked by a worker). */
export async function hasQueueJob(db: Kysely<Database>, renderId: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM graphile_worker.jobs WHERE key = ${renderJobKey(renderId)}`.execute(db);
  return rows.length > 0;
}

/** Counts for /health and metrics. */
export async function queueCounts(db: Kysely<Database>): Promise<{ queued: number; processing: number }> {
  const rows = await db
    .selectFrom('renders')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('status', 'in', ['queued', 'processing'])
    .groupBy('status')
    .execute();
  const get = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { queued: get('queued'), processing: get('processing') };
}

/** graphile-worker's logger, silenced below warnings (ours logs job events). */
export function quietLogger(LoggerClass: typeof import('graphile-worker').Logger): import('graphile-worker').Logger {
  return new LoggerClass(() => (level, message) => {
    if (level === 'error' || level === 'warning') process.stderr.write(`[graphile-worker] ${level}: ${message}\n`);
  });
}
