/** GET /available-parts (spec 4.2) and POST /parts (spec 4.7). */
import { Router, type Request } from 'express';
import { getPartsByIds, listParts } from '../../catalog/repository.js';
import { publicBase, type ApiContext } from '../context.js';
import { requireAuth } from '../require-auth.js';
import { availablePartsQuery, partsBody } from '../schemas.js';
import { parseOr400 } from '../validate.js';
import { partImageUrl } from './assets.js';

export const DEFAULT_LIMIT = 20;

export function partsRoutes(ctx: ApiContext): Router {
  const r = Router();
  const base = (req: Request) => publicBase(ctx, req);

  r.get('/available-parts', requireAuth(ctx, 'data:read'), async (req, res) => {
    const q = parseOr400(availablePartsQuery, req.query, 'query');
    const limit = q.limit ?? DEFAULT_LIMIT;
    const skip = q.skip ?? 0;
    const { items, total } = await listParts(ctx.db, q.category, { limit, skip });
    const b = base(req);
    res.json({
      data: { [q.category]: items.map((p) => ({ id: p.id, name: p.name, image: partImageUrl(b, p.id) })) },
      category: q.category,
      pagination: { total, limit, skip, hasNext: skip + items.length < total, hasPrev: skip > 0 },
    });
  });

  r.post('/parts', requireAuth(ctx, 'data:read'), async (req, res) => {
    const { ids } = parseOr400(partsBody, req.body, 'body');
    const rows = ids.length ? await getPartsByIds(ctx.db, [...new Set(ids)]) : [];
    const byId = new Map(rows.map((p) => [p.id, p]));
    const b = base(req);
    // request order, unknown IDs left out (they are simply not available)
    const parts = [...new Set(ids)]
      .map((id) => byId.get(id))
      .filter((p) => p !== undefined)
      .map((p) => ({ id: p.id, name: p.name, image: partImageUrl(b, p.id), category: p.category }));
    res.json({ parts });
  });
  return r;
}
