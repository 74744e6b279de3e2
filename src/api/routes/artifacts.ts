/**
 * GET/HEAD /artifacts/<key>: downloads of rendered files (videos, sprite sheets, screenshots,
 * thumbnails) from the artifact store, with ETag revalidation and single byte ranges (video
 * players seek with Range).
 *
 * Public, no auth: <video> and <img> tags cannot send Authorization, and the keys are
 * content-addressed hashes of the render request, so a URL is as hard to guess as a token and
 * is only handed out in the job object of a customer entitled to it.
 */
import { Router, type Request, type Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../../log.js';
import { isArtifactKey } from '../../storage/artifact-key.js';
import type { ArtifactStore, StoredArtifact } from '../../storage/artifact-store.js';
import { parseRangeHeader } from '../../storage/byte-range.js';
import { ArtifactNotFoundError } from '../../storage/storage-errors.js';
import { HttpError, notFound } from '../http-error.js';

/** Keys are content-addressed: the bytes behind a URL never change. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** What the router needs: the store, and optionally a logger for failed downloads. */
export interface ArtifactRouteContext {
  store: ArtifactStore;
  log?: Logger;
}

/** Opaque tags compare equal whether weak or not (RFC 9110 8.8.3.2, weak comparison). */
function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/** If-Range holds a strong validator that must equal the current one for Range to apply. */
function ifRangeAllows(req: Request, meta: StoredArtifact): boolean {
  const ifRange = req.get('if-range');
  if (!ifRange) return true;
  return !meta.etag.startsWith('W/') && ifRange.trim() === meta.etag;
}

function setEntityHeaders(res: Response, meta: StoredArtifact): void {
  res.setHeader('ETag', meta.etag);
  res.setHeader('Cache-Control', CACHE_CONTROL);
  if (meta.lastModified) res.setHeader('Last-Modified', meta.lastModified.toUTCString());
}

/**
 * The router. Mount it before the 404 handler: `app.use(artifactRoutes({ store, log }))`.
 * It serves any store through `store.read`, but only the fs store's URLs point at it.
 */
export function artifactRoutes(ctx: ArtifactRouteContext): Router {
  const r = Router();
  // Express 5 also routes HEAD here; `*key` gives the path segments as an array
  r.get('/artifacts/*key', async (req, res) => {
    const segments = (req.params as { key?: string[] | string }).key;
    const key = Array.isArray(segments) ? segments.join('/') : String(segments ?? '');
    // a malformed key (traversal, odd characters) is simply not an artifact: 404, not 400
    const meta = isArtifactKey(key) ? await ctx.store.stat(key) : null;
    if (!meta) throw notFound('artifact_not_found', `no artifact at /artifacts/${key.slice(0, 200)}`);

    res.setHeader('Accept-Ranges', 'bytes');
    const inm = req.get('if-none-match');
    if (inm && matchesIfNoneMatch(inm, meta.etag)) {
      setEntityHeaders(res, meta);
      res.status(304).end();
      return;
    }

    const wanted = ifRangeAllows(req, meta) ? parseRangeHeader(req.get('range'), meta.size) : { kind: 'full' as const };
    if (wanted.kind === 'unsatisfiable') {
      // a JSON error body, so no year-long caching headers on it
      throw new HttpError(416, 'range_not_satisfiable', `the artifact has ${meta.size} bytes; the requested range is outside it`, undefined, {
        'Content-Range': `bytes */${meta.size}`,
      });
    }
    const range = wanted.kind === 'partial' ? wanted.range : undefined;
    // opened before any header is set, so an artifact deleted since stat() is still a clean 404
    let body: NodeJS.ReadableStream | null = null;
    if (req.method !== 'HEAD' && meta.size > 0) {
      try {
        body = await ctx.store.read(key, range);
      } catch (err) {
        if (err instanceof ArtifactNotFoundError) throw notFound('artifact_not_found', `no artifact at /artifacts/${key}`);
        throw err;
      }
    }
    setEntityHeaders(res, meta);
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
      // a client that stops a download midway (seeking video players do) is not a failure
      if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || req.destroyed) return;
      ctx.log?.warn({ err, key }, 'artifact download failed');
      // headers are out: the error middleware can only cut the connection
      throw err;
    }
  });
  return r;
}
