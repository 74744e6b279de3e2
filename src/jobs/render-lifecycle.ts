/**
 * Every state transition of a render row, named, in one place:
 *
 *   create ─> queued ─claim─> processing ─complete─> completed
 *                ^                 │ ├─progress (stays processing)
 *                │                 │ └─fail─> error
 *                └──requeue / release (transient failure, dead or draining worker)
 *   error / completed ─reopen (retry, or asked for again)─> queued
 *
 * The render_events and webhook triggers (sql/0006, sql/0007) fire on these updates, so a
 * transition made anywhere else would still notify, but would not be found here: keep them here.
 * Functions take a kysely instance or transaction and do not retry; callers that must survive a
 * database outage wrap them (the render task's `record`).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { NormalisedRequest } from '../model/render-request.js';
import type { RenderArtifacts, RenderRow } from './render-row.js';

type Q = Kysely<Database>;

/** What the cache key of a new render was computed from, kept so the worker can check it (sql/0008). */
export interface KeyInputs {
  cacheKey: string;
  request: NormalisedRequest;
  partVersions: Record<string, number>;
  rendererVersion: string;
  /** the admission estimate, CPU-seconds (cost-model.ts) */
  estimatedCostS: number;
}

/** Inserts a queued render for a key; undefined when the key already has a row. */
export async function createRender(db: Q, format: RenderRow['format'], k: KeyInputs): Promise<RenderRow | undefined> {
  return (await db
    .insertInto('renders')
    .values({
      cache_key: k.cacheKey,
      format,
      request: JSON.stringify(k.request),
      part_versions: JSON.stringify(k.partVersions),
      renderer_version: k.rendererVersion,
      estimated_cost_s: k.estimatedCostS,
    })
    .onConflict((oc) => oc.column('cache_key').doNothing())
    .returningAll()
    .executeTakeFirst()) as RenderRow | undefined;
}

/** A failed render asked for again: back to queued with a clean slate; undefined when the key's render has not failed. */
export async function reopenFailedRender(db: Q, cacheKey: string, estimatedCostS: number): Promise<RenderRow | undefined> {
  return (await db
    .updateTable('renders')
    .set({ status: 'queued', error: null, progress: 0, attempts: 0, artifacts: null, estimated_cost_s: estimatedCostS, updated_at: new Date() })
    .where('cache_key', '=', cacheKey)
    .where('status', '=', 'error')
    .returningAll()
    .executeTakeFirst()) as RenderRow | undefined;
}

/** An operator's retry (`jobs retry`): back to queued from the state it was seen in; undefined when it changed meanwhile. */
export async function reopenRender(db: Q, renderId: string, seenStatus: RenderRow['status']): Promise<{ id: string } | undefined> {
  return db
    .updateTable('renders')
    .set({ status: 'queued', error: null, progress: 0, attempts: 0, finished_at: null, updated_at: new Date() })
    .where('id', '=', renderId)
    .where('status', '=', seenStatus)
    .returning('id')
    .executeTakeFirst();
}

/** A worker takes a render: processing, attempt counted; undefined when it is already final (nothing to do). */
export async function claimRender(db: Q, renderId: string, by: { workerId: string; lockedBy: string | null }): Promise<RenderRow | undefined> {
  return (await db
    .updateTable('renders')
    .set((eb) => ({
      status: 'processing',
      started_at: new Date(),
      worker_id: by.workerId,
      locked_by: by.lockedBy,
      attempts: eb('attempts', '+', 1),
      progress: 0,
      updated_at: new Date(),
    }))
    .where('id', '=', renderId)
    .where('status', 'in', ['queued', 'processing'])
    .returningAll()
    .executeTakeFirst()) as RenderRow | undefined;
}

/** Progress of a processing render (0..0.99: only completion says 1). */
export async function recordProgress(db: Q, renderId: string, fraction: number): Promise<void> {
  await db
    .updateTable('renders')
    .set({ progress: Math.max(0, Math.min(0.99, fraction)), updated_at: new Date() })
    .where('id', '=', renderId)
    .where('status', '=', 'processing')
    .execute();
}

export interface Completion {
  artifacts: RenderArtifacts;
  spriteLayout: object | null;
  backend: string;
  framesPerSecond: number;
  renderMs: number;
}

export async function completeRender(db: Q, renderId: string, c: Completion): Promise<void> {
  await db
    .updateTable('renders')
    .set({
      status: 'completed',
      progress: 1,
      artifacts: JSON.stringify(c.artifacts),
      sprite_layout: c.spriteLayout ? JSON.stringify(c.spriteLayout) : null,
      error: null,
      backend: c.backend,
      frames_per_second: c.framesPerSecond,
      render_ms: Math.round(c.renderMs),
      finished_at: new Date(),
      updated_at: new Date(),
    })
    .where('id', '=', renderId)
    .execute();
}

/** Final failure, with a human reason the job object shows. */
export async function failRender(db: Q, renderId: string, reason: string): Promise<void> {
  await db.updateTable('renders').set({ status: 'error', error: reason, finished_at: new Date(), updated_at: new Date() }).where('id', '=', renderId).execute();
}

/** A transient failure: queued again (graphile-worker retries the queue job), the reason kept. */
export async function requeueRender(db: Q, renderId: string, reason: string): Promise<void> {
  await db.updateTable('renders').set({ status: 'queued', progress: 0, error: reason, updated_at: new Date() }).where('id', '=', renderId).execute();
}

/** Renders these workers were processing go back to queued (a dead or drained worker); returns how many. */
export async function releaseWorkerRenders(db: Q, workerIds: readonly string[]): Promise<number> {
  if (!workerIds.length) return 0;
  const r = await db
    .updateTable('renders')
    .set({ status: 'queued', progress: 0, updated_at: new Date() })
    .where('status', '=', 'processing')
    .where('worker_id', 'in', [...workerIds])
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
