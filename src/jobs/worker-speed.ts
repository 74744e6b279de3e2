/**
 * Each worker's own measured speed, stored per worker and profile as seconds per
 * megapixel-frame (frame size taken out, so a 256 px sprite and a 1080p video calibrate the
 * same figure). Chunk sizes (chunk-plan.ts) follow the slowest live worker: a chunk sized for
 * the fastest would overrun the target on the others and hold back the render's last chunk.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Profile } from '../model/render-defaults.js';
import { FRAME_BASE_S } from './cost-model.js';
import { DEAD_AFTER_S } from './sweeper.js';

/** weight of a new measurement against the stored figure: follows load changes within a few renders */
const NEW_WEIGHT = 0.5;
/** frames this small are dominated by per-frame overheads and say little about s/MP */
const MIN_MEGAPIXELS = 0.05;

/** Seconds per megapixel-frame from a measured frame rate (null when it says nothing). */
export function secondsPerMegapixel(framesPerSecond: number, frameMegapixels: number): number | null {
  if (!(framesPerSecond > 0) || !(frameMegapixels >= MIN_MEGAPIXELS)) return null;
  const s = (1 / framesPerSecond - FRAME_BASE_S) / frameMegapixels;
  return s > 0 ? Math.round(s * 1e4) / 1e4 : null;
}

/** Folds a measurement into the worker's stored figure for `profile`. */
export async function recordWorkerSpeed(db: Db, workerId: string, profile: Profile, framesPerSecond: number, frameMegapixels: number): Promise<void> {
  const s = secondsPerMegapixel(framesPerSecond, frameMegapixels);
  if (s === null) return;
  await sql`
    UPDATE workers SET speed = jsonb_set(COALESCE(speed, '{}'::jsonb), ARRAY[${profile}::text],
      to_jsonb(COALESCE((speed ->> ${profile})::float * ${1 - NEW_WEIGHT} + ${s}::float * ${NEW_WEIGHT}, ${s}::float)))
    WHERE id = ${workerId}`.execute(db.db);
}

/** The slowest live worker's seconds per megapixel-frame for `profile`; null when none measured it. */
export async function slowestWorkerSpeed(db: Db, profile: Profile): Promise<number | null> {
  const { rows } = await sql<{ s: number | null }>`
    SELECT max((speed ->> ${profile})::float) AS s FROM workers
    WHERE stopped_at IS NULL AND last_seen >= now() - make_interval(secs => ${DEAD_AFTER_S})`.execute(db.db);
  const s = rows[0]?.s;
  return s === null || s === undefined ? null : Number(s);
}
