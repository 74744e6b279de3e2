/**
 * Every state transition of a chunk row of a split render (the state diagram, with the render
 * rows': render-lifecycle.ts; the claim fence: claim-fence.ts).
 */
import { sql, type Kysely, type Selectable, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Database, RenderChunksTable } from '../db/schema.js';
import type { ChunkRange } from './chunk-plan.js';
import type { RenderRow } from './render-row.js';
import {
  claimColumns,
  HELD,
  NOW,
  releaseWorkerRows,
  staleChunk,
  staleRender,
  type Fenced,
  type Holder,
} from './claim-fence.js';

type Q = Kysely<Database>;
type ChunkUpdate = UpdateQueryBuilder<Database, 'render_chunks', 'render_chunks', UpdateResult>;

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
export async function splitRender(
  db: Q,
  renderId: string,
  by: Holder,
  plan: string,
  ranges: readonly ChunkRange[],
): Promise<Fenced> {
  const r = await db
    .updateTable('renders')
    .set({
      chunk_plan: plan,
      chunk_total: ranges.length,
      chunks_done: 0,
      worker_id: null,
      locked_by: null,
      claim: null,
      progress: 0,
      updated_at: NOW,
    })
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
  let q = db
    .selectFrom('renders')
    .selectAll()
    .where('id', '=', renderId)
    .where('chunk_plan', '=', plan)
    .where('status', '=', 'processing');
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
    .set({ ...claimColumns(by), frames_done: 0, pieces: JSON.stringify(by.pieces(render)) })
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
export async function recordChunkProgress(
  db: Q,
  renderId: string,
  plan: string,
  idx: number,
  by: Holder,
  framesDone: number,
): Promise<Fenced> {
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
  if (c && c.worker_id === by.workerId && c.claim === by.claim && (c.status === 'processing' || c.status === 'queued'))
    return HELD;
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
  await trx
    .updateTable('renders')
    .set({ chunks_done: sql<number>`chunk_total - ${remaining}` })
    .where('id', '=', renderId)
    .execute();
  return { held: true, remaining };
}

/** A chunk's transient failure, by its holder: queued again (graphile-worker retries its job), the reason kept. */
export async function requeueChunk(
  db: Q,
  renderId: string,
  plan: string,
  idx: number,
  by: Holder,
  reason: string,
): Promise<Fenced> {
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
export async function failChunk(
  db: Q,
  renderId: string,
  plan: string,
  idx: number,
  by: Holder,
  reason: string,
): Promise<Fenced> {
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
export function releaseWorkerChunks(db: Q, workerIds: readonly string[]): Promise<number> {
  return releaseWorkerRows(db, 'render_chunks', { frames_done: 0 }, workerIds);
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
export async function chunksToAssemble(
  db: Q,
  renderId: string,
  plan: string,
): Promise<{ render: RenderRow; chunks: ChunkRow[] } | undefined> {
  const render = await renderOfPlan(db, renderId, plan);
  if (!render) return undefined;
  const chunks = await db
    .selectFrom('render_chunks')
    .selectAll()
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .orderBy('idx')
    .execute();
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
    .select([
      'c.render_id',
      'c.idx',
      'c.plan',
      'c.pieces',
      sql<boolean>`r.chunk_plan IS DISTINCT FROM c.plan`.as('superseded'),
    ])
    .where('c.pieces', 'is not', null)
    .where((eb) =>
      eb.or([eb('r.status', '<>', 'processing'), eb('r.chunk_plan', 'is distinct from', eb.ref('c.plan'))]),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    render_id: r.render_id,
    idx: r.idx,
    plan: r.plan,
    pieces: (r.pieces ?? {}) as ChunkPieces,
    superseded: r.superseded,
  }));
}

/** The chunk's pieces were deleted from the store; a superseded plan's row goes with them. */
export async function clearChunkPieces(
  db: Q,
  c: Pick<AbandonedChunk, 'render_id' | 'plan' | 'idx' | 'superseded'>,
): Promise<void> {
  if (c.superseded) {
    await db
      .deleteFrom('render_chunks')
      .where('render_id', '=', c.render_id)
      .where('plan', '=', c.plan)
      .where('idx', '=', c.idx)
      .execute();
    return;
  }
  await db
    .updateTable('render_chunks')
    .set({ pieces: null })
    .where('render_id', '=', c.render_id)
    .where('plan', '=', c.plan)
    .where('idx', '=', c.idx)
    .execute();
}
