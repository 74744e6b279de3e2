/**
 * Last-requested tracking (renders.last_requested_at, sql/0013): what artifact retention sorts
 * by. Recorded on a submit and a job poll (folded into their one statement: submit.ts,
 * jobs-repository.ts `pollJob`) and an `/artifacts` read, at most once a minute per render, so a
 * hot render costs one small write a minute, not one per request.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { renderCacheKeyOf } from '../storage/artifact-key.js';

/** How stale last_requested_at may be; retention's own windows are hours and days. */
export const TOUCH_EVERY_S = 60;

/** Most distinct renders one process remembers having touched; past it the memory starts over. */
const REMEMBERED = 10_000;

/**
 * A recorder for `/artifacts` reads: a video is fetched in many Range requests, so this process
 * remembers what it touched in the last minute and goes to the database at most once a minute
 * per render. Keys that are not a render's file (thumbnails, pregen, models) are ignored.
 * Failures are dropped: a download never waits on, or fails for, this bookkeeping.
 */
export function artifactReadRecorder(db: Kysely<Database>, onError?: (err: Error) => void): (key: string) => void {
  const touched = new Map<string, number>();
  return (key) => {
    const cacheKey = renderCacheKeyOf(key);
    if (!cacheKey) return;
    const now = Date.now();
    const last = touched.get(cacheKey);
    if (last !== undefined && now - last < TOUCH_EVERY_S * 1000) return;
    if (touched.size >= REMEMBERED) touched.clear();
    touched.set(cacheKey, now);
    sql`UPDATE renders SET last_requested_at = now()
         WHERE cache_key = ${cacheKey} AND last_requested_at < now() - make_interval(secs => ${TOUCH_EVERY_S})`
      .execute(db)
      .catch((err: Error) => onError?.(err));
  };
}
