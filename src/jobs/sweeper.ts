/**
 * Dead-worker recovery. Workers heartbeat every few seconds; a worker silent for longer than
 * DEAD_AFTER (the workerDeadAfterSeconds setting, RENDER_FARM_WORKER_DEAD_AFTER) has its queue jobs force-unlocked (graphile-worker would otherwise keep them
 * locked for ~4 hours) and its renders put back to `queued`, so another worker takes them.
 * Runs in every worker and in serve; idempotent, so several sweepers are harmless. Nobody is
 * swept in the first DEAD_AFTER of the database's uptime: after a database restart every
 * worker was silent through no fault of its own and gets that long to heartbeat again.
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { ageWaitingJobs } from './fair-priority.js';
import { forceUnlockWorkers } from './queue/graphile-tables.js';
import {
  abandonedChunks,
  chunkLocks,
  clearChunkPieces,
  releaseWorkerChunks,
  type AbandonedChunk,
} from './chunk-lifecycle.js';
import { releaseWorkerRenders } from './render-lifecycle.js';

export const HEARTBEAT_MS = 5_000;
/** the default of the workerDeadAfterSeconds setting (src/config.ts) */
export const DEAD_AFTER_S = 30;
export const SWEEP_MS = 5_000;

export interface SweepResult {
  deadWorkers: string[];
  requeuedRenders: number;
  requeuedChunks: number;
}

export async function sweepDeadWorkers(db: Db, deadAfterS = DEAD_AFTER_S): Promise<SweepResult> {
  const dead = await db.db
    .selectFrom('workers')
    .select(['id', 'graphile_ids'])
    .where('stopped_at', 'is', null)
    .where('last_seen', '<', sql<Date>`now() - make_interval(secs => ${deadAfterS})`)
    .where(sql<boolean>`pg_postmaster_start_time() < now() - make_interval(secs => ${deadAfterS})`)
    .execute();
  if (!dead.length) return { deadWorkers: [], requeuedRenders: 0, requeuedChunks: 0 };
  const ids = dead.map((w) => w.id);
  // the ids each worker reported, plus those its renders recorded when they were claimed
  const claimedBy = await db.db
    .selectFrom('renders')
    .select('locked_by')
    .where('status', '=', 'processing')
    .where('worker_id', 'in', ids)
    .where('locked_by', 'is not', null)
    .execute();
  const chunkIds = await chunkLocks(db.db, ids);
  const graphileIds = [
    ...new Set([...dead.flatMap((w) => w.graphile_ids), ...claimedBy.map((r) => r.locked_by!), ...chunkIds]),
  ];
  await unlockGraphileWorkers(db.db, graphileIds);
  const requeued = await releaseWorkerRenders(db.db, ids);
  const requeuedChunks = await releaseWorkerChunks(db.db, ids);
  await db.db.updateTable('workers').set({ stopped_at: sql`now()` }).where('id', 'in', ids).execute();
  return { deadWorkers: ids, requeuedRenders: requeued, requeuedChunks };
}

/** Frees the queue jobs these graphile-worker ids hold, so any worker can take them again. */
export async function unlockGraphileWorkers(db: Kysely<Database>, graphileIds: readonly string[]): Promise<void> {
  await forceUnlockWorkers(db, graphileIds);
}

/**
 * Deletes chunk pieces that no render will assemble (render failed, reopened or split anew;
 * or the assemble step's own delete failed). Pieces are recorded before they are uploaded, so
 * a worker that died mid-upload leaves nothing unrecorded. Returns the chunks swept.
 */
export async function sweepChunkPieces(db: Db, store: ArtifactStore): Promise<AbandonedChunk[]> {
  const chunks = await abandonedChunks(db.db);
  for (const c of chunks) {
    for (const key of Object.values(c.pieces)) if (key) await store.delete(key);
    await clearChunkPieces(db.db, c);
  }
  return chunks;
}

/**
 * Starts sweeping every SWEEP_MS (workers silent for deadAfterS; with a store, abandoned chunk
 * pieces too); returns a stop function.
 */
export function startSweeper(
  db: Db,
  onSweep?: (r: SweepResult) => void,
  everyMs = SWEEP_MS,
  store?: ArtifactStore,
  deadAfterS = DEAD_AFTER_S,
): () => void {
  const timer = setInterval(() => {
    sweepDeadWorkers(db, deadAfterS).then(
      (r) => r.deadWorkers.length && onSweep?.(r),
      () => {},
    );
    if (store) sweepChunkPieces(db, store).catch(() => {});
    ageWaitingJobs(db.db).catch(() => {});
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
