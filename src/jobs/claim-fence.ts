/**
 * The claim fence of render and chunk rows (state diagram: render-lifecycle.ts).
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
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Q = Kysely<Database>;

/** The database's clock: every stored time (see the file comment). */
export const NOW = sql<Date>`now()`;
/** A fresh claim token. */
export const NEW_CLAIM = sql<string>`gen_random_uuid()`;

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

/** The outcome of a fenced write that took effect. */
export const HELD: { held: true } = { held: true };

/** What a claim writes on a render or chunk row: processing by this worker, a fresh claim token, one more attempt. */
export function claimColumns(by: { workerId: string; lockedBy: string | null }) {
  return {
    status: 'processing' as const,
    started_at: NOW,
    worker_id: by.workerId,
    locked_by: by.lockedBy,
    claim: NEW_CLAIM,
    attempts: sql<number>`attempts + 1`,
    updated_at: NOW,
  };
}

/** The Stale of a render write that changed nothing: who holds the render now, and its state. */
export async function staleRender(db: Q, renderId: string): Promise<Stale> {
  const r = await db
    .selectFrom('renders')
    .select(['worker_id', 'status'])
    .where('id', '=', renderId)
    .executeTakeFirst();
  return { held: false, holder: r?.worker_id ?? null, status: r?.status ?? 'gone' };
}

/** The Stale of a chunk write that changed nothing: who holds the chunk now, and its state. */
export async function staleChunk(db: Q, renderId: string, plan: string, idx: number): Promise<Stale> {
  const c = await db
    .selectFrom('render_chunks')
    .select(['worker_id', 'status'])
    .where('render_id', '=', renderId)
    .where('plan', '=', plan)
    .where('idx', '=', idx)
    .executeTakeFirst();
  return { held: false, holder: c?.worker_id ?? null, status: c?.status ?? 'gone' };
}

/**
 * Rows of `table` these workers were processing go back to queued with `reset` (their progress
 * zeroed): a dead or drained worker's renders or chunks. Returns how many.
 */
export async function releaseWorkerRows(
  db: Q,
  table: 'renders' | 'render_chunks',
  reset: { progress: 0 } | { frames_done: 0 },
  workerIds: readonly string[],
): Promise<number> {
  if (!workerIds.length) return 0;
  const r = await db
    .updateTable(table)
    .set({ status: 'queued', ...reset, updated_at: NOW })
    .where('status', '=', 'processing')
    .where('worker_id', 'in', [...workerIds])
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
