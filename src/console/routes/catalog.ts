/** The catalog page: parts, saved builds, and a build's preview render (a small, fast sprite). */
import { Router } from 'express';
import { z } from 'zod';
import { buildForShareCode, getBuild, listBuilds } from '../../catalog/builds.js';
import { getPartsByIds, listParts } from '../../catalog/parts.js';
import { submitRender } from '../../jobs/submit.js';
import { CATEGORIES, type Category } from '../../model/part.js';
import { text } from '../../model/text.js';
import type { ApiContext } from '../../http/context.js';
import { badRequest } from '../../http/http-error.js';
import { queryChoice } from '../../http/query-fields.js';
import { parseOr400 } from '../../http/validate.js';
import type * as Api from '../console-api.js';
import { sessionOf } from '../console-security.js';

/** the console's preview: a small, fast sprite */
const PREVIEW = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;

/** no category: every category's parts */
const partsQuery = z.object({ category: queryChoice('category', CATEGORIES) });

/** the saved build to preview, by its share code (as POST /render-by-share-code takes it) */
const previewBody = z.object({ shareCode: text().min(1, 'shareCode must name a saved build').max(64) }).strict();

export function catalogRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/console/api/catalog/parts', async (req, res) => {
    const { category } = parseOr400(partsQuery, req.query, 'query');
    const categories: readonly Category[] = category ? [category] : CATEGORIES;
    const pages = await Promise.all(categories.map((c) => listParts(ctx.db, c, { limit: 200, skip: 0 })));
    const parts = await getPartsByIds(
      ctx.db,
      pages.flatMap((p) => p.items.map((i) => i.id)),
    );
    const body: { parts: Api.CatalogPart[] } = {
      parts: parts.map((p) => ({
        id: p.id,
        name: p.name,
        category: p.category,
        specs: { ...p.specs },
        thumbnail: `/assets/parts/${encodeURIComponent(p.id)}`,
      })),
    };
    res.json(body);
  });

  r.get('/console/api/catalog/builds', async (_req, res) => {
    const { items } = await listBuilds(ctx.db, { limit: 100, skip: 0 });
    const builds = (await Promise.all(items.map((b) => getBuild(ctx.db, b.shareCode)))).filter((b) => b !== null);
    const ids = [...new Set(builds.flatMap((b) => Object.values(b.parts as Record<string, readonly string[]>).flat()))];
    const byId = new Map((await getPartsByIds(ctx.db, ids)).map((p) => [p.id, p]));
    const body: { builds: Api.CatalogBuild[] } = {
      builds: builds.map((b) => ({
        shareCode: b.shareCode,
        name: b.name,
        parts: Object.values(b.parts as Record<string, readonly string[]>)
          .flat()
          .map((id) => byId.get(id))
          .filter((p) => p !== undefined)
          .map((p) => ({ id: p.id, name: p.name, category: p.category })),
      })),
    };
    res.json(body);
  });

  r.post('/console/api/preview', async (req, res) => {
    const s = sessionOf(req);
    const { shareCode } = parseOr400(previewBody, req.body, 'body');
    if (s.environment !== 'prod')
      throw badRequest('unsupported_environment', `renders run only in the prod environment, not ${s.environment}`);
    const build = await buildForShareCode(ctx.db, shareCode);
    const { maxFrameMegapixels, maxJobCostSeconds, maxCustomerInFlightSeconds } = ctx.cfg;
    const sub = await submitRender(ctx.db, {
      customerId: s.customerId,
      environment: s.environment,
      parts: build.parts,
      state: build.state,
      options: { ...PREVIEW },
      shareCode,
      limits: { maxFrameMegapixels, maxJobCostSeconds, maxCustomerInFlightSeconds },
    });
    ctx.log.info({ jobId: sub.jobId, outcome: sub.outcome, customer: s.customerName }, 'console preview submitted');
    res.json({ jobId: sub.jobId });
  });
  return r;
}
