/**
 * Artifact keys: relative, slash-separated paths such as `renders/ab/abcdef.../video.mp4`.
 * The same key names a file under the fs root, an object in the bucket and a URL path, so the
 * rules are strict enough to be safe in all three without escaping. The layouts of the keys
 * the service writes (renders, pregenerated renders, thumbnails) are at the end.
 */
import { InternalError } from '../errors.js';
import type { Format } from '../model/render-defaults.js';

/** Longest accepted key; S3 allows 1024 bytes and the bucket prefix shares that budget. */
export const MAX_KEY_LENGTH = 512;

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** Thrown for a key that breaks the rules: the code built a bad key (routes check isArtifactKey first and answer 404). */
export class InvalidArtifactKeyError extends InternalError {
  constructor(key: string, reason: string) {
    super(`invalid artifact key ${JSON.stringify(key.slice(0, 100))}: ${reason}`);
    this.name = 'InvalidArtifactKeyError';
  }
}

/** Why `key` is not a valid artifact key, or null when it is. */
export function artifactKeyProblem(key: string): string | null {
  if (typeof key !== 'string' || key.length === 0) return 'empty';
  if (key.length > MAX_KEY_LENGTH) return `longer than ${MAX_KEY_LENGTH} characters`;
  if (key.startsWith('/')) return 'must not start with a slash';
  for (const segment of key.split('/')) {
    if (segment === '') return 'empty path segment (double or trailing slash)';
    // a leading dot also rules out `.` and `..`; and it keeps the fs store's temp files
    // and metadata folder (both dot-named) out of reach of any key
    if (segment.startsWith('.')) return 'a path segment must not start with a dot';
    if (!SEGMENT.test(segment)) return 'only A-Z a-z 0-9 / _ . - are allowed';
  }
  return null;
}

/** True when `key` is a valid artifact key. */
export function isArtifactKey(key: string): boolean {
  return artifactKeyProblem(key) === null;
}

/** Returns `key` unchanged, or throws InvalidArtifactKeyError. */
export function assertArtifactKey(key: string): string {
  const problem = artifactKeyProblem(key);
  if (problem) throw new InvalidArtifactKeyError(key, problem);
  return key;
}

/*
 * The key layouts, one place for all of them. Keys are content-addressed or versioned, so the
 * bytes behind a key never change (the artifact route serves them as immutable).
 */

/** The files of a render, by kind (the screenshot keeps the extension it was written with). */
export const RENDER_FILE_NAMES = { video: 'turntable.mp4', sprite: 'sprite.webp', screenshot: 'hero' } as const;

/** A render's file, shared by every job of that render: `renders/<k[0..2]>/<cacheKey>/<file>`. */
export function renderArtifactKey(cacheKey: string, file: string): string {
  return `renders/${cacheKey.slice(0, 2)}/${cacheKey}/${file}`;
}

/** A pregenerated render's main file: `pregen/<combinationKey>/turntable.mp4|sprite.webp`. */
export function pregenArtifactKey(combinationKey: string, format: Format): string {
  return `pregen/${combinationKey}/${RENDER_FILE_NAMES[format]}`;
}

/** Thumbnail keys are `thumbnails/<partId>/<data version>.webp` (SQL builds the same string from these). */
export const THUMBNAIL_KEY_PREFIX = 'thumbnails/';
export const THUMBNAIL_KEY_SUFFIX = '.webp';

/** A part's thumbnail for one data version. */
export function thumbnailKey(partId: string, version: number): string {
  return `${THUMBNAIL_KEY_PREFIX}${partId}/${version}${THUMBNAIL_KEY_SUFFIX}`;
}

/** Temporary results of a split render's chunks: `chunks/<cacheKey>/<plan>/<idx>/<file>` (deleted after assembly). */
export const CHUNK_KEY_PREFIX = 'chunks/';

/** One piece of one chunk of a plan. */
export function chunkArtifactKey(cacheKey: string, plan: string, idx: number, file: string): string {
  return `${CHUNK_KEY_PREFIX}${cacheKey}/${plan}/${idx}/${file}`;
}

/** Prepared part models: `models/<sha256>.glb`, content-addressed (equal models share one object). */
export const MODEL_KEY_PREFIX = 'models/';

/** The prepared GLB whose sha256 is `sha256` (lower-case hex). */
export function modelArtifactKey(sha256: string): string {
  return `${MODEL_KEY_PREFIX}${sha256}.glb`;
}

/** The cache key of a render file's key (`renders/<k[0..2]>/<cacheKey>/<file>`), or null for any other key. */
export function renderCacheKeyOf(key: string): string | null {
  const m = /^renders\/[^/]{2}\/([^/]+)\/[^/]+$/.exec(key);
  return m ? m[1]! : null;
}
