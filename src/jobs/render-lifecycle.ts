/**
 * Every state transition of a render row, named; the state diagram of render and chunk rows:
 *
 *   create ─> queued ─claim─> processing ─complete─> completed
 *                ^                 │ ├─progress (stays processing)
 *                │                 │ └─fail─> error
 *                └──requeue / release (transient failure, dead or draining worker)
 *   error / completed ─reopen (retry, or asked for again)─> queued
 *   queued / processing ─cancel (an operator)─> error (CANCELLED_MESSAGE; its chunks too)
 *   completed ─expire (retention removes its files)─> error (expired_at set; reopened when asked for again)
 *
 * A large render is split instead of rendered by its claiming task (planChunks): it stays
 * processing while its chunks go
 *
 *   queued ─claimChunk─> processing ─completeChunk─> done    (the last one queues the assemble)
 *     ^                      │ └─failChunk─> error (and the render fails)
 *     └─requeueChunk / releaseWorkerChunks
 *
 * and the assemble task completes (or fails) the render. Each split has its own plan id: a
 * chunk or assemble job of an older plan (the render was retried meanwhile) finds nothing to do.
 *
 * The transitions of chunk rows (and the split): chunk-lifecycle.ts; expiry by retention:
 * render-expiry.ts; the claim fence every worker write passes, and the database clock:
 * claim-fence.ts.
 *
 * The render_events and webhook triggers (sql/0006, sql/0007) fire on these updates, so a
 * transition made anywhere else would still notify, but would not be found here: keep them in
 * these files.
 * Functions take a kysely instance or transaction and do not retry; callers that must survive a
 * database outage wrap them (the render task's `record`).
 */
import type { Kysely, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { Database } from '../db/schema.js';
import type { NormalisedRequest } from '../model/render-request.js';
import type { RenderArtifacts, RenderRow } from './render-row.js';
import { claimColumns, HELD, NOW, releaseWorkerRows, staleRender, type Fenced, type Holder } from './claim-fence.js';

type Q = Kysely<Database>;
type RenderUpdate = UpdateQueryBuilder<Database, 'renders', 'renders', UpdateResult>;

/** Who may write a render: its holder (a whole render), or the assemble step of its current plan. */
export type RenderFence = Holder | { plan: string };

/** What the cache key of a new render was computed from, kept so the worker can check it (sql/0008). */
export interface KeyInputs {
  cacheKey: string;
  request: NormalisedRequest;
  partVersions: Record<string, number>;
  rendererVersion: string;
  /** part ID -> model sha256 (sql/0010); empty or absent: no part had a model */
  models?: Record<string, string>;
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
      models: k.models && Object.keys(k.models).length ? JSON.stringify(k.models) : null,
      estimated_cost_s: k.estimatedCostS,
    })
    .onConflict((oc) => oc.column('cache_key').doNothing())
    .returningAll()
    .executeTakeFirst()) as RenderRow | undefined;
}

/** The clean slate of a render queued again (a failed one asked for anew, or an operator's retry). */
const REQUEUED = {
  status: 'queued',
  error: null,
  progress: 0,
  attempts: 0,
  chunk_plan: null,
  chunk_total: null,
  chunks_done: null,
  claim: null,
  updated_at: NOW,
} as const;

/** A failed (or expired) render asked for again: back to queued with a clean slate, requested now; undefined when the key's render has not failed. */
export async function reopenFailedRender(
  db: Q,
  cacheKey: string,
  estimatedCostS: number,
): Promise<RenderRow | undefined> {
  return (await db
    .updateTable('renders')
    .set({ ...REQUEUED, artifacts: null, estimated_cost_s: estimatedCostS })
    .set({ expired_at: null, last_requested_at: NOW })
    .where('cache_key', '=', cacheKey)
    .where('status', '=', 'error')
    .returningAll()
    .executeTakeFirst()) as RenderRow | undefined;
}

/** An operator's retry (`jobs retry`): back to queued from the state it was seen in; undefined when it changed meanwhile. */
export async function reopenRender(
  db: Q,
  renderId: string,
  seenStatus: RenderRow['status'],
): Promise<{ id: string } | undefined> {
  return db
    .updateTable('renders')
    .set({ ...REQUEUED, finished_at: null })
    .where('id', '=', renderId)
    .where('status', '=', seenStatus)
    .returning('id')
    .executeTakeFirst();
}

/**
 * A worker takes a render: processing, attempt counted, a fresh claim token (holderOf() of the
 * row is what its later writes pass); undefined when there is nothing to do: it is final, or
 * it is already split into chunks (a second run of its queue job).
 */
export async function claimRender(
  db: Q,
  renderId: string,
  by: { workerId: string; lockedBy: string | null },
): Promise<RenderRow | undefined> {
  return (await db
    .updateTable('renders')
    .set({ ...claimColumns(by), progress: 0 })
    .where('id', '=', renderId)
    .where((eb) =>
      eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'processing'), eb('chunk_plan', 'is', null)])]),
    )
    .returningAll()
    .executeTakeFirst()) as RenderRow | undefined;
}

/** Progress of a processing render (0..0.99: only completion says 1), by its holder. */
export async function recordProgress(db: Q, renderId: string, by: Holder, fraction: number): Promise<Fenced> {
  const r = await db
    .updateTable('renders')
    .set({ progress: Math.max(0, Math.min(0.99, fraction)), updated_at: NOW })
    .where('id', '=', renderId)
    .where('status', '=', 'processing')
    .where('worker_id', '=', by.workerId)
    .where('claim', '=', by.claim)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? HELD : staleRender(db, renderId);
}

export interface Completion {
  artifacts: RenderArtifacts;
  spriteLayout: object | null;
  backend: string;
  framesPerSecond: number;
  renderMs: number;
  /** bytes of the stored files (the store's running total, sql/0013) */
  bytes?: number;
}

/**
 * The rows a render write may touch: the holder's while processing, or released and not yet
 * claimed again (queued, same token); the assemble step's while its plan is current.
 */
function fenceRender(q: RenderUpdate, by: RenderFence): RenderUpdate {
  if ('plan' in by) return q.where('chunk_plan', '=', by.plan).where('status', '=', 'processing');
  return q
    .where('worker_id', '=', by.workerId)
    .where('claim', '=', by.claim)
    .where('status', 'in', ['processing', 'queued']);
}

/** The render is done: its files, by its holder or its plan's assemble step. */
export async function completeRender(db: Q, renderId: string, by: RenderFence, c: Completion): Promise<Fenced> {
  const q = db
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
      artifact_bytes: c.bytes ?? null,
      finished_at: NOW,
      updated_at: NOW,
    })
    .where('id', '=', renderId);
  const r = await fenceRender(q, by).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? HELD : staleRender(db, renderId);
}

/** Final failure, with a human reason the job object shows; by its holder or its plan's assemble step. */
export async function failRender(db: Q, renderId: string, by: RenderFence, reason: string): Promise<Fenced> {
  const q = db
    .updateTable('renders')
    .set({ status: 'error', error: reason, finished_at: NOW, updated_at: NOW })
    .where('id', '=', renderId);
  const r = await fenceRender(q, by).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? HELD : staleRender(db, renderId);
}

/** What a cancelled render's job object says (status error: the spec's statuses have no other end). */
export const CANCELLED_MESSAGE =
  'cancelled: an operator cancelled this render (jobs cancel, the console or POST /render-build/{jobId}/cancel); retry it to render it again';

/**
 * An operator's cancel (docs/console.md): a queued or processing render ends in error with
 * CANCELLED_MESSAGE, and the queued or processing chunks of its current plan with it. Not
 * fenced: it is nobody's claim. A worker on it finds out on its next progress write (fenced,
 * so it returns a Stale) and stops (run-attempt.ts); its queue job then finds nothing to do.
 * Undefined when the render had already ended.
 */
export async function cancelRender(
  db: Q,
  renderId: string,
): Promise<{ id: string; chunk_plan: string | null } | undefined> {
  const row = await db
    .updateTable('renders')
    .set({ status: 'error', error: CANCELLED_MESSAGE, finished_at: NOW, updated_at: NOW })
    .where('id', '=', renderId)
    .where('status', 'in', ['queued', 'processing'])
    .returning(['id', 'chunk_plan'])
    .executeTakeFirst();
  if (row?.chunk_plan) {
    await db
      .updateTable('render_chunks')
      .set({ status: 'error', error: 'cancelled', finished_at: NOW, updated_at: NOW })
      .where('render_id', '=', renderId)
      .where('plan', '=', row.chunk_plan)
      .where('status', 'in', ['queued', 'processing'])
      .execute();
  }
  return row;
}

/** A transient failure: queued again (graphile-worker retries the queue job), the reason kept; by its holder. */
export async function requeueRender(db: Q, renderId: string, by: Holder, reason: string): Promise<Fenced> {
  const q = db
    .updateTable('renders')
    .set({ status: 'queued', progress: 0, error: reason, updated_at: NOW })
    .where('id', '=', renderId);
  const r = await fenceRender(q, by).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? HELD : staleRender(db, renderId);
}

/** Renders these workers were processing go back to queued (a dead or drained worker); returns how many. */
export function releaseWorkerRenders(db: Q, workerIds: readonly string[]): Promise<number> {
  return releaseWorkerRows(db, 'renders', { progress: 0 }, workerIds);
}
