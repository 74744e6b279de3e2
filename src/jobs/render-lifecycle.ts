/**
 * Every state transition of a render row, named, in one place:
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
 * Fencing (docs/design-decisions.md). A worker taken for dead (a partition, a long pause) may come back and
 * write to a render or chunk another worker has claimed since. Each claim sets a fresh claim
 * token (sql/0012), and every later write by a worker (progress, complete, requeue, fail,
 * split) takes effect only while the row still carries that worker's id AND token: the
 * holder. A stale holder's write changes nothing and returns a `Stale` naming who holds the
 * row now, which the caller logs and drops (no retry, and a stale last attempt never fails the
 * render). A release (dead or drained worker) keeps the token: until someone claims the row
 * again, the old holder's result is as good as anyone's, and its queue job is free again
 * anyway. The assemble step holds no claim: its writes are fenced on the render's plan.
 *
 * Clock (docs/design-decisions.md): every stored time is the database's `now()`, never the worker's clock,
 * so times compare with `created_at`, heartbeats and each other whatever a worker's clock says.
 *
 * The render_events and webhook triggers (sql/0006, sql/0007) fire on these updates, so a
 * transition made anywhere else would still notify, but would not be found here: keep them here.
 * Functions take a kysely instance or transaction and do not retry; callers that must survive a
 * database outage wrap them (the render task's `record`).
 */
import { sql, type Kysely, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Database, RenderChunksTable } from '../db/schema.js';
import type { Selectable } from 'kysely';
import type { ChunkRange } from './chunk-plan.js';
import type { NormalisedRequest } from '../model/render-request.js';
import type { RenderArtifacts, RenderRow } from './render-row.js';

type Q = Kysely<Database>;
type RenderUpdate = UpdateQueryBuilder<Database, 'renders', 'renders', UpdateResult>;
type ChunkUpdate = UpdateQueryBuilder<Database, 'render_chunks', 'render_chunks', UpdateResult>;

/** The database's clock: every stored time (see the file comment). */
const NOW = sql<Date>`now()`;
/** A fresh claim token. */
const NEW_CLAIM = sql<string>`gen_random_uuid()`;

/** Who holds a claimed render or chunk: the worker process and the token its claim set. */
export interface Holder {
  workerId: string;
  claim: string;
}

/** The holder a claim returned (a claimed row always has both). */
export function holderOf(row: { worker_id: string | null; claim: string | null }): Holder {
  if (!row.worker_id || !row.claim) throw new Error('holderOf: the row was not claimed');
  return { workerId: row.worker_id, claim: row.claim };
}

/** A write by a worker that no longer holds the row: nothing was written. */
export interface Stale {
  held: false;
  /** the worker on the row now (null: none) */
  holder: string | null;
  /** the row's state now ('superseded': its render was split anew or moved on; 'gone': deleted) */
  status: string;
}

/** The outcome of a fenced write: it took effect (with what it returns), or the caller's hold was stale. */
export type Fenced<T extends object = object> = ({ held: true } & T) | Stale;

/** The Stale of a fenced write's outcome, or undefined when it took effect. */
export function staleOf(f: Fenced): Stale | undefined {
  return f.held ? undefined : f;
}

/** For the log line of a stale write: "was taken over by <worker>" or "is no longer mine (<state>)". */
export function staleReason(s: Stale, me: string): string {
  return s.holder && s.holder !== me ? `was taken over by ${s.holder}` : `is no longer mine (${s.status})`;
}

/** Who may write a render: its holder (a whole render), or the assemble step of its current plan. */
export type RenderFence = Holder | { plan: string };

const HELD: { held: true } = { held: true };

async function staleRender(db: Q, renderId: string): Promise<Stale> {
  const r = await db.selectFrom('renders').select(['worker_id', 'status']).where('id', '=', renderId).executeTakeFirst();
  return { held: false, holder: r?.worker_id ?? null, status: r?.status ?? 'gone' };
}

async function staleChunk(db: Q, renderId: string, plan: string, idx: number): Promise<Stale> {
  const c = await db.selectFrom('render_chunks').select(['worker_id', 'status']).where('render_id', '=', renderId).where('plan', '=', plan).where('idx', '=', idx).executeTakeFirst();
  return { held: false, holder: c?.worker_id ?? null, status: c?.status ?? 'gone' };
}

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

/** A failed (or expired) render asked for again: back to queued with a clean slate, requested now; undefined when the key's render has not failed. */
export async function reopenFailedRender(db: Q, cacheKey: string, estimatedCostS: number): Promise<RenderRow | undefined> {
  return (await db
    .updateTable('renders')
    .set({ status: 'queued', error: null, progress: 0, attempts: 0, artifacts: null, estimated_cost_s: estimatedCostS, chunk_plan: null, chunk_total: null, chunks_done: null, claim: null, updated_at: NOW })
    .set({ expired_at: null, last_requested_at: NOW })
    .where('cache_key', '=', cacheKey)
    .where('status', '=', 'error')
    .returningAll()
    .executeTakeFirst()) as RenderRow | undefined;
}

/** An operator's retry (`jobs retry`): back to queued from the state it was seen in; undefined when it changed meanwhile. */
export async function reopenRender(db: Q, renderId: string, seenStatus: RenderRow['status']): Promise<{ id: string } | undefined> {
  return db
    .updateTable('renders')
    .set({ status: 'queued', error: null, progress: 0, attempts: 0, finished_at: null, chunk_plan: null, chunk_total: null, chunks_done: null, claim: null, updated_at: NOW })
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
export async function claimRender(db: Q, renderId: string, by: { workerId: string; lockedBy: string | null }): Promise<RenderRow | undefined> {
  return (await db
    .updateTable('renders')
    .set((eb) => ({
      status: 'processing',
      started_at: NOW,
      worker_id: by.workerId,
      locked_by: by.lockedBy,
      claim: NEW_CLAIM,
      attempts: eb('attempts', '+', 1),
      progress: 0,
      updated_at: NOW,
    }))
    .where('id', '=', renderId)
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'processing'), eb('chunk_plan', 'is', null)])]))
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
  return q.where('worker_id', '=', by.workerId).where('claim', '=', by.claim).where('status', 'in', ['processing', 'queued']);
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
  const q = db.updateTable('renders').set({ status: 'error', error: reason, finished_at: NOW, updated_at: NOW }).where('id', '=', renderId);
  const r = await fenceRender(q, by).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? HELD : staleRender(db, renderId);
}

/** What a cancelled render's job object says (status error: the spec's statuses have no other end). */
export const CANCELLED_MESSAGE = 'cancelled: an operator cancelled this render (jobs cancel, the console or POST /render-build/{jobId}/cancel); retry it to render it again';

/**
 * An operator's cancel (docs/console.md): a queued or processing render ends in error with
 * CANCELLED_MESSAGE, and the queued or processing chunks of its current plan with it. Not
 * fenced: it is nobody's claim. A worker on it finds out on its next progress write (fenced,
 * so it returns a Stale) and stops (run-attempt.ts); its queue job then finds nothing to do.
 * Undefined when the render had already ended.
 */
export async function cancelRender(db: Q, renderId: string): Promise<{ id: string; chunk_plan: string | null } | undefined> {
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
  const q = db.updateTable('renders').set({ status: 'queued', progress: 0, error: reason, updated_at: NOW }).where('id', '=', renderId);
  const r = await fenceRender(q, by).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? HELD : staleRender(db, renderId);
}

/** Renders these workers were processing go back to queued (a dead or drained worker); returns how many. */
export async function releaseWorkerRenders(db: Q, workerIds: readonly string[]): Promise<number> {
  if (!workerIds.length) return 0;
  const r = await db
    .updateTable('renders')
    .set({ status: 'queued', progress: 0, updated_at: NOW })
    .where('status', '=', 'processing')
    .where('worker_id', 'in', [...workerIds])
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/* ---- chunks ---------------------------------------------------------------------------- */

export type ChunkRow = Selectable<RenderChunksTable>;

/** Artifact keys of a chunk's temporary results, by piece. */
export interface ChunkPieces {
  h264?: string;
  rows?: string;
  screenshot?: string;
}

/**
 * A claimed render is split into chunk rows of a new plan (an older plan's rows stay until the
 * sweeper has deleted their pieces), and no longer belongs to the claiming worker (its chunks
 * do), so a dead planner does not requeue it. By its holder: a stale one splits nothing.
 */
export async function splitRender(db: Q, renderId: string, by: Holder, plan: string, ranges: readonly ChunkRange[]): Promise<Fenced> {
  const r = await db
    .updateTable('renders')
    .set({ chunk_plan: plan, chunk_total: ranges.length, chunks_done: 0, worker_id: null, locked_by: null, claim: null, progress: 0, updated_at: NOW })
    .where('id', '=', renderId)
    .where('status', '=', 'processing')
    .where('worker_id', '=', by.workerId)
    .where('claim', '=', by.claim)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return staleRender(db, renderId);
  await db
    .insertInto('render_chunks')
    .values(ranges.map((c) => ({ render_id: renderId, plan, idx: c.idx, start_frame: c.start, end_frame: c.end })))
    .execute();
  return HELD;
}

/** A processing render of this plan (undefined: superseded, failed or done). */
async function renderOfPlan(db: Q, renderId: string, plan: string, lock = false): Promise<RenderRow | undefined> {
  let q = db.selectFrom('renders').selectAll().where('id', '=', renderId).where('chunk_plan', '=', plan).where('status', '=', 'processing');
  if (lock) q = q.forUpdate();
  return (await q.executeTakeFirst()) as RenderRow | undefined;
}

/**
 * A worker takes a chunk (a fresh claim token: holderOf() of the chunk is what its later writes
 * pass): the render row and the chunk, or undefined when there is nothing to do. `pieces` are the keys its results may be stored under, recorded before any upload so
 * that the sweeper finds them even if this worker dies mid-upload.
 */
export async function claimChunk(
  db: Q,
  renderId: string,
  plan: string,
  idx: number,
  by: { workerId: string; lockedBy: string | null; pieces: (render: RenderRow) => ChunkPieces },
): Promise<{ render: RenderRow; chunk: ChunkRow } | undefined> {
  const render = await renderOfPlan(db, renderId, plan);
  if (!render) return undefined;
  const chunk = await db
    .updateTable('render_chunks')
    .set((eb) => ({
      status: 'processing',
      started_at: NOW,
      worker_id: by.workerId,
      locked_by: by.lockedBy,
      claim: NEW_CLAIM,
      attempts: eb('attempts', '+', 1),
      frames_done: 0,
      pieces: JSON.stringify(by.pieces(render)),
      updated_at: NOW,
    }))
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .where('idx', '=', idx)
    .where('status', 'in', ['queued', 'processing'])
    .returningAll()
    .executeTakeFirst();
  return chunk ? { render, chunk } : undefined;
}

/** The render's progress from its chunks' frames (0..0.99). */
async function updateChunkedProgress(db: Q, renderId: string, plan: string): Promise<void> {
  await sql`
    UPDATE renders SET progress = LEAST(0.99, c.done::real / GREATEST(1, c.total)), updated_at = now()
    FROM (SELECT COALESCE(sum(frames_done), 0) AS done, COALESCE(sum(end_frame - start_frame), 0) AS total
          FROM render_chunks WHERE render_id = ${renderId} AND plan = ${plan}) c
    WHERE id = ${renderId} AND chunk_plan = ${plan} AND status = 'processing'
      AND progress IS DISTINCT FROM LEAST(0.99, c.done::real / GREATEST(1, c.total))`.execute(db);
}

/** Frames a processing chunk has rendered, by its holder; the render's progress counts frames over all chunks. */
export async function recordChunkProgress(db: Q, renderId: string, plan: string, idx: number, by: Holder, framesDone: number): Promise<Fenced> {
  const r = await db
    .updateTable('render_chunks')
    .set({ frames_done: Math.max(0, Math.floor(framesDone)), updated_at: NOW })
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .where('idx', '=', idx)
    .where('status', '=', 'processing')
    .where('worker_id', '=', by.workerId)
    .where('claim', '=', by.claim)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return staleChunk(db, renderId, plan, idx);
  await updateChunkedProgress(db, renderId, plan);
  return HELD;
}

/**
 * Whether `by` still holds the chunk (a read, no write): checked before uploading its pieces, so
 * a stale holder neither overwrites the new holder's pieces nor leaves unrecorded ones behind.
 */
export async function holdsChunk(db: Q, renderId: string, plan: string, idx: number, by: Holder): Promise<Fenced> {
  const c = await db
    .selectFrom('render_chunks')
    .select(['worker_id', 'claim', 'status'])
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .where('idx', '=', idx)
    .executeTakeFirst();
  if (c && c.worker_id === by.workerId && c.claim === by.claim && (c.status === 'processing' || c.status === 'queued')) return HELD;
  return { held: false, holder: c?.worker_id ?? null, status: c?.status ?? 'gone' };
}

/** The chunk rows its holder may still write: processing, or released and not claimed again since. */
function fenceChunk(q: ChunkUpdate, renderId: string, plan: string, idx: number, by: Holder): ChunkUpdate {
  return q
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .where('idx', '=', idx)
    .where('worker_id', '=', by.workerId)
    .where('claim', '=', by.claim)
    .where('status', 'in', ['processing', 'queued']);
}

/**
 * A chunk is done, by its holder. Run in a transaction: the render row is locked first, so of
 * two chunks finishing at once exactly one sees none left and queues the assemble (in the same
 * transaction). Returns the chunks still not done; Stale when the plan is superseded (status
 * 'superseded') or another worker holds the chunk.
 */
export async function completeChunk(
  trx: Q,
  renderId: string,
  plan: string,
  idx: number,
  by: Holder,
  done: { pieces: ChunkPieces; renderMs: number; backend: string },
): Promise<Fenced<{ remaining: number }>> {
  const render = await renderOfPlan(trx, renderId, plan, true);
  if (!render) return { held: false, holder: null, status: 'superseded' };
  const q = trx.updateTable('render_chunks').set({
    status: 'done',
    frames_done: sql<number>`end_frame - start_frame`,
    pieces: JSON.stringify(done.pieces),
    render_ms: Math.round(done.renderMs),
    backend: done.backend,
    error: null,
    finished_at: NOW,
    updated_at: NOW,
  });
  const r = await fenceChunk(q, renderId, plan, idx, by).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return staleChunk(trx, renderId, plan, idx);
  await updateChunkedProgress(trx, renderId, plan);
  const left = await trx
    .selectFrom('render_chunks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .where('status', '<>', 'done')
    .executeTakeFirstOrThrow();
  const remaining = Number(left.n);
  await trx.updateTable('renders').set({ chunks_done: sql<number>`chunk_total - ${remaining}` }).where('id', '=', renderId).execute();
  return { held: true, remaining };
}

/** A chunk's transient failure, by its holder: queued again (graphile-worker retries its job), the reason kept. */
export async function requeueChunk(db: Q, renderId: string, plan: string, idx: number, by: Holder, reason: string): Promise<Fenced> {
  const q = db.updateTable('render_chunks').set({ status: 'queued', frames_done: 0, error: reason, updated_at: NOW });
  const r = await fenceChunk(q, renderId, plan, idx, by).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return staleChunk(db, renderId, plan, idx);
  await updateChunkedProgress(db, renderId, plan);
  return HELD;
}

/**
 * A chunk failed for good, by its holder: it and its render end in error (the render's other
 * chunks then stop). A stale holder fails neither.
 */
export async function failChunk(db: Q, renderId: string, plan: string, idx: number, by: Holder, reason: string): Promise<Fenced> {
  const q = db.updateTable('render_chunks').set({ status: 'error', error: reason, finished_at: NOW, updated_at: NOW });
  const r = await fenceChunk(q, renderId, plan, idx, by).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return staleChunk(db, renderId, plan, idx);
  await db
    .updateTable('renders')
    .set({ status: 'error', error: `chunk ${idx + 1}: ${reason}`, finished_at: NOW, updated_at: NOW })
    .where('id', '=', renderId)
    .where('chunk_plan', '=', plan)
    .where('status', '=', 'processing')
    .execute();
  return HELD;
}

/** Chunks these workers were rendering go back to queued (a dead or drained worker); returns how many. */
export async function releaseWorkerChunks(db: Q, workerIds: readonly string[]): Promise<number> {
  if (!workerIds.length) return 0;
  const r = await db
    .updateTable('render_chunks')
    .set({ status: 'queued', frames_done: 0, updated_at: NOW })
    .where('status', '=', 'processing')
    .where('worker_id', 'in', [...workerIds])
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The graphile-worker ids that processing chunks of these workers were claimed under (for unlocking). */
export async function chunkLocks(db: Q, workerIds: readonly string[]): Promise<string[]> {
  if (!workerIds.length) return [];
  const rows = await db
    .selectFrom('render_chunks')
    .select('locked_by')
    .where('status', '=', 'processing')
    .where('worker_id', 'in', [...workerIds])
    .where('locked_by', 'is not', null)
    .execute();
  return rows.map((r) => r.locked_by!);
}

/** The assemble step's input: the render and its chunks in frame order, once all are done; undefined otherwise. */
export async function chunksToAssemble(db: Q, renderId: string, plan: string): Promise<{ render: RenderRow; chunks: ChunkRow[] } | undefined> {
  const render = await renderOfPlan(db, renderId, plan);
  if (!render) return undefined;
  const chunks = await db.selectFrom('render_chunks').selectAll().where('render_id', '=', renderId).where('plan', '=', plan).orderBy('idx').execute();
  if (!chunks.length || chunks.some((c) => c.status !== 'done')) return undefined;
  return { render, chunks };
}

/** The chunks of a render's current plan, in frame order (none when it was rendered in one task). */
export async function renderChunks(db: Q, renderId: string): Promise<ChunkRow[]> {
  return db
    .selectFrom('render_chunks as c')
    .innerJoin('renders as r', (j) => j.onRef('r.id', '=', 'c.render_id').onRef('r.chunk_plan', '=', 'c.plan'))
    .selectAll('c')
    .where('c.render_id', '=', renderId)
    .orderBy('c.idx')
    .execute();
}

/** A chunk whose temporary pieces may be deleted. */
export interface AbandonedChunk {
  render_id: string;
  plan: string;
  idx: number;
  pieces: ChunkPieces;
  /** its render was split anew: the row itself goes too once the pieces are gone */
  superseded: boolean;
}

/**
 * Chunk pieces no render will assemble any more: their render completed (and the assemble
 * step could not delete them), failed, was reopened, or was split anew. Chunks that quietly
 * outlive their worker stay: their render is still processing and their job is retried.
 */
export async function abandonedChunks(db: Q, limit = 200): Promise<AbandonedChunk[]> {
  const rows = await db
    .selectFrom('render_chunks as c')
    .innerJoin('renders as r', 'r.id', 'c.render_id')
    .select(['c.render_id', 'c.idx', 'c.plan', 'c.pieces', sql<boolean>`r.chunk_plan IS DISTINCT FROM c.plan`.as('superseded')])
    .where('c.pieces', 'is not', null)
    .where((eb) => eb.or([eb('r.status', '<>', 'processing'), eb('r.chunk_plan', 'is distinct from', eb.ref('c.plan'))]))
    .limit(limit)
    .execute();
  return rows.map((r) => ({ render_id: r.render_id, idx: r.idx, plan: r.plan, pieces: (r.pieces ?? {}) as ChunkPieces, superseded: r.superseded }));
}

/** The chunk's pieces were deleted from the store; a superseded plan's row goes with them. */
export async function clearChunkPieces(db: Q, c: Pick<AbandonedChunk, 'render_id' | 'plan' | 'idx' | 'superseded'>): Promise<void> {
  if (c.superseded) {
    await db.deleteFrom('render_chunks').where('render_id', '=', c.render_id).where('plan', '=', c.plan).where('idx', '=', c.idx).execute();
    return;
  }
  await db.updateTable('render_chunks').set({ pieces: null }).where('render_id', '=', c.render_id).where('plan', '=', c.plan).where('idx', '=', c.idx).execute();
}

/* ---- retention (src/jobs/artifact-retention.ts) ------------------------------------------ */

/** What an expired render's job object says (status error): why, and what to do. */
export const EXPIRED_MESSAGE =
  "expired: this render's files were removed by storage retention after going unrequested; submit the same request again to render it again";

/**
 * Completed renders lose their files: `error` with expired_at set (no webhook: sql/0013) and
 * the keys kept in `artifacts` until the files are deleted (expiredFiles, clearExpiredFiles).
 * The guard is checked again here, on each row as it is now: a render requested or finished
 * within `keepRecentMinutes` meanwhile stays. Returns the ids expired.
 */
export async function expireRenders(db: Q, ids: readonly string[], keepRecentMinutes: number): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await sql<{ id: string }>`
    UPDATE renders SET status = 'error', error = ${EXPIRED_MESSAGE}, progress = 0, expired_at = now(), updated_at = now()
     WHERE id = ANY(${[...ids]}::uuid[]) AND status = 'completed'
       AND last_requested_at < now() - make_interval(secs => ${keepRecentMinutes * 60})
       AND (finished_at IS NULL OR finished_at < now() - make_interval(secs => ${keepRecentMinutes * 60}))
    RETURNING id`.execute(db);
  return rows.rows.map((r) => r.id);
}

/**
 * Expired renders whose files are still to be deleted, locked (run in a transaction, then
 * clearExpiredFiles): a submit that reopens one of them waits until its files are gone, so the
 * new render's files, written under the same keys, are never deleted.
 */
export async function expiredFiles(trx: Q, limit: number): Promise<{ id: string; artifacts: RenderArtifacts; bytes: number }[]> {
  const rows = await sql<{ id: string; artifacts: RenderArtifacts; artifact_bytes: string | null }>`
    SELECT id, artifacts, artifact_bytes FROM renders
     WHERE status = 'error' AND expired_at IS NOT NULL AND artifacts IS NOT NULL
     LIMIT ${limit} FOR UPDATE SKIP LOCKED`.execute(trx);
  return rows.rows.map((r) => ({ id: r.id, artifacts: r.artifacts, bytes: Number(r.artifact_bytes ?? 0) }));
}

/** The expired renders' files were deleted: no keys, no bytes (the store total drops by trigger). */
export async function clearExpiredFiles(trx: Q, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await trx.updateTable('renders').set({ artifacts: null, artifact_bytes: null }).where('id', 'in', [...ids]).where('status', '=', 'error').execute();
}
