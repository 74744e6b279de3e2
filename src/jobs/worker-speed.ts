/**
 * Each worker's own measured speed, stored per worker, profile AND frame-size class as seconds
 * per megapixel-frame (`workers.speed`, keys `<profile>@<class>`, e.g. `fast@s`). Chunk sizes
 * (chunk-plan.ts) follow the slowest live worker: a chunk sized for the fastest would overrun
 * the target on the others and hold back the render's last chunk.
 *
 * Why size classes (docs/operating.md, "Chunked renders"): a frame costs a fixed part (capture round trip, readback, encoder
 * feed, the effect stack's passes) plus a part per pixel, and on small frames the fixed part is
 * most of it. One s/MP figure per profile, learned from 256 px sprites (0.8-1.2 s/MP on the
 * fault run's workers, against the cost model's 0.15 for `fast`), made a 640x360 fast video
 * look 3-4x slower than it is, so it was split and cost twice the whole render. A figure is
 * now used only for frames of the size class it was measured on (classes 4x apart in area:
 * a 256 px sprite, 640x360-640x480, 720p, 1080p-2048 px, larger); a class no live worker has
 * measured falls back to the cost model's figure. Keys of the old form (`fast`) are ignored.
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

/** Upper bounds (megapixels) of the frame-size classes, 4x apart: 256 px sprite | 640x360-640x480 | 720p | 1080p-2048 px | larger. */
const SIZE_CLASSES: ReadonlyArray<readonly [name: string, maxMp: number]> = [
  ['xs', 0.1],
  ['s', 0.4],
  ['m', 1.6],
  ['l', 6.4],
  ['xl', Infinity],
];

/** The key a speed is stored under: the profile and the frame's size class (`fast@s`). */
export function speedKey(profile: Profile, frameMegapixels: number): string {
  const cls = SIZE_CLASSES.find(([, max]) => frameMegapixels < max)![0];
  return `${profile}@${cls}`;
}

/** Folds a measurement into the worker's stored figure for `profile` at this frame size's class. */
export async function recordWorkerSpeed(
  db: Db,
  workerId: string,
  profile: Profile,
  framesPerSecond: number,
  frameMegapixels: number,
): Promise<void> {
  const s = secondsPerMegapixel(framesPerSecond, frameMegapixels);
  if (s === null) return;
  const key = speedKey(profile, frameMegapixels);
  await sql`
    UPDATE workers SET speed = jsonb_set(COALESCE(speed, '{}'::jsonb), ARRAY[${key}::text],
      to_jsonb(COALESCE((speed ->> ${key})::float * ${1 - NEW_WEIGHT} + ${s}::float * ${NEW_WEIGHT}, ${s}::float)))
    WHERE id = ${workerId}`.execute(db.db);
}

/** What a split is planned with: the live worker processes, and the slowest one's figure. */
export interface FarmSpeed {
  /** the slowest live worker's seconds per megapixel-frame for this profile and size class; null when none measured it */
  sPerMp: number | null;
  /** live worker processes (at least 1: the one asking) */
  workers: number;
}

/** The slowest live worker's speed for `profile` at this frame size, and how many workers are live. */
export async function farmSpeed(db: Db, profile: Profile, frameMegapixels: number): Promise<FarmSpeed> {
  const key = speedKey(profile, frameMegapixels);
  const { rows } = await sql<{ s: number | null; n: string }>`
    SELECT max((speed ->> ${key})::float) AS s, count(*) AS n FROM workers
    WHERE stopped_at IS NULL AND last_seen >= now() - make_interval(secs => ${DEAD_AFTER_S})`.execute(db.db);
  const s = rows[0]?.s;
  return { sPerMp: s === null || s === undefined ? null : Number(s), workers: Math.max(1, Number(rows[0]?.n ?? 1)) };
}
