/**
 * GET/HEAD /artifacts/<key>: downloads of rendered files (videos, sprite sheets, screenshots,
 * thumbnails) from the artifact store, with ETag revalidation and single byte ranges (video
 * players seek with Range).
 *
 * Public, no auth: <video> and <img> tags cannot send Authorization, and the keys are
 * content-addressed hashes of the render request, so a URL is as hard to guess as a token and
 * is only handed out in the job object of a customer entitled to it.
 */
import { Router } from 'express';
import type { Logger } from '../../log.js';
import { CHUNK_KEY_PREFIX, isArtifactKey } from '../../storage/artifact-key.js';
import type { ArtifactStore, StoredArtifact } from '../../storage/artifact-store.js';
import { notFound } from '../../http/http-error.js';
import { sendStored } from '../send-stored.js';

/** Keys are content-addressed: the bytes behind a URL never change. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** What the router needs: the store, and optionally a logger for failed downloads. */
export interface ArtifactRouteContext {
  store: ArtifactStore;
  log?: Logger;
  /** told of each artifact served (retention's last-requested time: render-touch.ts); must not throw or wait */
  onRead?: (key: string) => void;
}

/** Opaque tags compare equal whether weak or not (RFC 9110 8.8.3.2, weak comparison). */
function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

function entityHeaders(meta: StoredArtifact): Record<string, string> {
  return {
    ETag: meta.etag,
    'Cache-Control': CACHE_CONTROL,
    ...(meta.lastModified ? { 'Last-Modified': meta.lastModified.toUTCString() } : {}),
  };
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
    // chunk pieces are a split render's temporary intermediates, not results: never served
    const meta = isArtifactKey(key) && !key.startsWith(CHUNK_KEY_PREFIX) ? await ctx.store.stat(key) : null;
    if (!meta) throw notFound('artifact_not_found', `no artifact at /artifacts/${key.slice(0, 200)}`);
    ctx.onRead?.(key);

    const inm = req.get('if-none-match');
    if (inm && matchesIfNoneMatch(inm, meta.etag)) {
      for (const [k, v] of Object.entries(entityHeaders(meta))) res.setHeader(k, v);
      res.setHeader('Accept-Ranges', 'bytes');
      res.status(304).end();
      return;
    }

    await sendStored(req, res, ctx.store, meta, {
      gone: () => notFound('artifact_not_found', `no artifact at /artifacts/${key}`),
      headers: entityHeaders(meta),
      log: ctx.log,
    });
  });
  return r;
}
