/**
 * Every state transition of a render row, named, in one place:
 *
 *   create ─> queued ─claim─> processing ─complete─> completed
 *                ^                 │ ├─progress (stays processing)
 *                │                 │ └─fail─> error
 *                └──requeue / release (transient failure, dead or draining worker)
 *   error / completed ─reopen (retry, or asked for again)─> queued
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
 * The render_events and webhook triggers (sql/0006, sql/0007) fire on these updates, so a
 * transition made anywhere else would still notify, but would not be found here: keep them here.
 * Functions take a kysely instance or transaction and do not retry; callers that must survive a
 * database outage wrap them (the render task's `record`).
 */
import { sql, type Kysely } from 'kysely';
import type { Database, RenderChunksTable } from '../db/schema.js';
import type { Selectable } from 'kysely';
import type { ChunkRange } from './chunk-plan.js';
import type { NormalisedRequest } from '../model/render-request.js';
import type { RenderArtifacts, RenderRow } from './render-row.js';

type Q = Kysely<Database>;

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
    .set({ status: 'queued', error: null, progress: 0, attempts: 0, artifacts: null, estimated_cost_s: estimatedCostS, chunk_plan: null, chunk_total: null, chunks_done: null, updated_at: new Date() })
    .set({ expired_at: null, last_requested_at: sql`now()` })
    .where('cache_key', '=', cacheKey)
    .where('status', '=', 'error')
    .returningAll()
    .executeTakeFirst()) as RenderRow | undefined;
}

/** An operator's retry (`jobs retry`): back to queued from the state it was seen in; undefined when it changed meanwhile. */
export async function reopenRender(db: Q, renderId: string, seenStatus: RenderRow['status']): Promise<{ id: string } | undefined> {
  return db
    .updateTable('renders')
    .set({ status: 'queued', error: null, progress: 0, attempts: 0, finished_at: null, chunk_plan: null, chunk_total: null, chunks_done: null, updated_at: new Date() })
    .where('id', '=', renderId)
    .where('status', '=', seenStatus)
    .returning('id')
    .executeTakeFirst();
}

/**
 * A worker takes a render: processing, attempt counted; undefined when there is nothing to do:
 * it is final, or it is already split into chunks (a second run of its queue job).
 */
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
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'processing'), eb('chunk_plan', 'is', null)])]))
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
  /** bytes of the stored files (the store's running total, sql/0013) */
  bytes?: number;
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
      artifact_bytes: c.bytes ?? null,
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
 * do), so a dead planner does not requeue it.
 */
export async function splitRender(db: Q, renderId: string, plan: string, ranges: readonly ChunkRange[]): Promise<void> {
  await db
    .insertInto('render_chunks')
    .values(ranges.map((r) => ({ render_id: renderId, plan, idx: r.idx, start_frame: r.start, end_frame: r.end })))
    .execute();
  await db
    .updateTable('renders')
    .set({ chunk_plan: plan, chunk_total: ranges.length, chunks_done: 0, worker_id: null, locked_by: null, progress: 0, updated_at: new Date() })
    .where('id', '=', renderId)
    .execute();
}

/** A processing render of this plan (undefined: superseded, failed or done). */
async function renderOfPlan(db: Q, renderId: string, plan: string, lock = false): Promise<RenderRow | undefined> {
  let q = db.selectFrom('renders').selectAll().where('id', '=', renderId).where('chunk_plan', '=', plan).where('status', '=', 'processing');
  if (lock) q = q.forUpdate();
  return (await q.executeTakeFirst()) as RenderRow | undefined;
}

/**
 * A worker takes a chunk: the render row and the chunk, or undefined when there is nothing to
 * do. `pieces` are the keys its results may be stored under, recorded before any upload so
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
      started_at: new Date(),
      worker_id: by.workerId,
      locked_by: by.lockedBy,
      attempts: eb('attempts', '+', 1),
      frames_done: 0,
      pieces: JSON.stringify(by.pieces(render)),
      updated_at: new Date(),
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

/** Frames a processing chunk has rendered; the render's progress counts frames over all chunks. */
export async function recordChunkProgress(db: Q, renderId: string, plan: string, idx: number, framesDone: number): Promise<void> {
  const r = await db
    .updateTable('render_chunks')
    .set({ frames_done: Math.max(0, Math.floor(framesDone)), updated_at: new Date() })
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .where('idx', '=', idx)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) > 0) await updateChunkedProgress(db, renderId, plan);
}

/**
 * A chunk is done. Run in a transaction: the render row is locked first, so of two chunks
 * finishing at once exactly one sees none left and queues the assemble (in the same
 * transaction). Returns the chunks still not done, or undefined when the plan is superseded.
 */
export async function completeChunk(
  trx: Q,
  renderId: string,
  plan: string,
  idx: number,
  done: { pieces: ChunkPieces; renderMs: number; backend: string },
): Promise<{ remaining: number } | undefined> {
  const render = await renderOfPlan(trx, renderId, plan, true);
  if (!render) return undefined;
  await trx
    .updateTable('render_chunks')
    .set({
      status: 'done',
      frames_done: sql<number>`end_frame - start_frame`,
      pieces: JSON.stringify(done.pieces),
      render_ms: Math.round(done.renderMs),
      backend: done.backend,
      error: null,
      finished_at: new Date(),
      updated_at: new Date(),
    })
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .where('idx', '=', idx)
    .execute();
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
  return { remaining };
}

/** A chunk's transient failure: queued again (graphile-worker retries its job), the reason kept. */
export async function requeueChunk(db: Q, renderId: string, plan: string, idx: number, reason: string): Promise<void> {
  await db
    .updateTable('render_chunks')
    .set({ status: 'queued', frames_done: 0, error: reason, updated_at: new Date() })
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .where('idx', '=', idx)
    .where('status', '=', 'processing')
    .execute();
  await updateChunkedProgress(db, renderId, plan);
}

/** A chunk failed for good: it and its render end in error (the render's other chunks then stop). */
export async function failChunk(db: Q, renderId: string, plan: string, idx: number, reason: string): Promise<void> {
  await db
    .updateTable('render_chunks')
    .set({ status: 'error', error: reason, finished_at: new Date(), updated_at: new Date() })
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .where('idx', '=', idx)
    .execute();
  await db
    .updateTable('renders')
    .set({ status: 'error', error: `chunk ${idx + 1}: ${reason}`, finished_at: new Date(), updated_at: new Date() })
    .where('id', '=', renderId)
    .where('chunk_plan', '=', plan)
    .where('status', '=', 'processing')
    .execute();
}

/** Chunks these workers were rendering go back to queued (a dead or drained worker); returns how many. */
export async function releaseWorkerChunks(db: Q, workerIds: readonly string[]): Promise<number> {
  if (!workerIds.length) return 0;
  const r = await db
    .updateTable('render_chunks')
    .set({ status: 'queued', frames_done: 0, updated_at: new Date() })
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
