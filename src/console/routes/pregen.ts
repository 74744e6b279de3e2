/** The pregen page: the cache as `pregen ls` lists it with the saved builds' coverage, and filling it (operators). */
import { Router } from 'express';
import { z } from 'zod';
import { FORMATS, PROFILES } from '../../model/render-defaults.js';
import { cacheOverview, fillCache } from '../../pregen/cache-status.js';
import { rendererVersion } from '../../render/renderer-version.js';
import { publicBase, type ApiContext } from '../../http/context.js';
import { parseOr400 } from '../../http/validate.js';
import type * as Api from '../console-api.js';
import { requireAdmin } from '../console-security.js';

/** the newest pregen entries the page lists (the totals count them all) */
const PREGEN_LISTED = 500;

/** which of the cache's variants to fill for every saved build */
const fillBody = z.object({ format: z.enum(FORMATS), profile: z.enum(PROFILES) }).strict();

export function pregenRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/console/api/pregen', async (req, res) => {
    // the entries `pregen ls` lists (every profile, size and format) and the saved builds' coverage
    const o = await cacheOverview(ctx.db, await rendererVersion(), PREGEN_LISTED);
    const base = publicBase(ctx, req);
    const body: Api.PregenView = {
      rendererVersion: o.rendererVersion,
      totals: o.totals,
      coverage: o.coverage,
      entries: await Promise.all(
        o.entries.map(async (e) => ({
          key: e.key,
          build: e.source.startsWith('build:') ? e.source.slice('build:'.length) : e.source || '-',
          source: e.source,
          format: e.format,
          size: `${e.width}x${e.height}`,
          profile: e.profile,
          bytes: e.bytes,
          state: e.stale ? ('stale' as const) : ('current' as const),
          staleReasons: e.staleReasons,
          createdAt: e.createdAt.toISOString(),
          url: await ctx.store.url(e.artifactKey, base),
        })),
      ),
    };
    res.json(body);
  });

  r.post('/console/api/pregen/fill', async (req, res) => {
    requireAdmin(req);
    const variant = parseOr400(fillBody, req.body, 'body');
    const queued = await fillCache(
      { db: ctx.db, store: ctx.store, rendererVersion: await rendererVersion() },
      variant,
      ctx.shutdown ?? new AbortController().signal,
      (err) =>
        ctx.log.warn(
          { err: err.message },
          'console pregen fill: following the farm renders failed; run it again to pick them up',
        ),
    );
    res.json({ queued });
  });
  return r;
}
