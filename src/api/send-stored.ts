/**
 * Sends a stored artifact's bytes: If-Range, single byte ranges (206/416), Content-Length,
 * streaming, and a quiet end when a client stops midway (seeking video players do). Shared
 * by /artifacts and the legacy /render-build-experimental.
 */
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../log.js';
import type { ArtifactStore, StoredArtifact } from '../storage/artifact-store.js';
import { parseRangeHeader } from '../storage/byte-range.js';
import { ArtifactNotFoundError } from '../storage/storage-errors.js';
import { HttpError } from '../http/http-error.js';

export interface SendOptions {
  /** the error when the artifact vanished between stat() and read() */
  gone: () => HttpError;
  /** headers that describe the entity (ETag, caching, …), set before the body */
  headers: Record<string, string>;
  log?: Logger;
}

/** If-Range holds a strong validator that must equal the current one for Range to apply. */
function ifRangeAllows(req: Request, meta: StoredArtifact): boolean {
  const ifRange = req.get('if-range');
  return !ifRange || (!meta.etag.startsWith('W/') && ifRange.trim() === meta.etag);
}

export async function sendStored(
  req: Request,
  res: Response,
  store: ArtifactStore,
  meta: StoredArtifact,
  opts: SendOptions,
): Promise<void> {
  const wanted = ifRangeAllows(req, meta) ? parseRangeHeader(req.get('range'), meta.size) : { kind: 'full' as const };
  if (wanted.kind === 'unsatisfiable') {
    // a JSON error body, so none of the entity's caching headers on it
    throw new HttpError(
      416,
      'range_not_satisfiable',
      `the file has ${meta.size} bytes; the requested range is outside it`,
      undefined,
      {
        'Content-Range': `bytes */${meta.size}`,
      },
    );
  }
  const range = wanted.kind === 'partial' ? wanted.range : undefined;
  // opened before any header is set, so a file deleted since stat() still gets a clean error
  let body: NodeJS.ReadableStream | null = null;
  if (req.method !== 'HEAD' && meta.size > 0) {
    try {
      body = await store.read(meta.key, range);
    } catch (err) {
      if (err instanceof ArtifactNotFoundError) throw opts.gone();
      throw err;
    }
  }
  for (const [k, v] of Object.entries(opts.headers)) res.setHeader(k, v);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Type', meta.contentType);
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${meta.size}`);
    res.setHeader('Content-Length', String(range.end - range.start + 1));
  } else {
    res.setHeader('Content-Length', String(meta.size));
  }
  if (!body) {
    res.end();
    return;
  }
  try {
    await pipeline(body, res);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || req.destroyed) return;
    opts.log?.warn({ err, key: meta.key }, 'download failed');
    // headers are out: the error middleware can only cut the connection
    throw err;
  }
}
