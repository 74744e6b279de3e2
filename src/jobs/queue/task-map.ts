/**
 * The queue's tasks: names, payloads, enqueue helpers (being gathered into one typed map).
 */
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import { addJob, addJobs } from './add-job.js';
import { taskSpec } from './task-spec.js';

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

/**
 * SQL: the part ids a thumbnail job carries, one row each (a set-returning expression over
 * graphile's `_private_jobs` as `pj`): a batch's `partIds`, or the one `partId` of a job queued
 * before thumbnails were batched.
 */
export const THUMBNAIL_JOB_PART_IDS = sql<string>`json_array_elements_text(COALESCE(pj.payload->'partIds', json_build_array(pj.payload->>'partId')))`;
/** SQL: how many parts a thumbnail job (`pj`) carries. */
export const THUMBNAIL_JOB_PART_COUNT = sql<number>`COALESCE(json_array_length(pj.payload->'partIds'), 1)`;
