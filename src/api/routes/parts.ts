/** GET /available-parts, POST /parts and GET /part/:id (docs/api.md, "Endpoints"), each part with its `model`. */
import { Router, type Request } from 'express';
import { getPartsByIds, listParts } from '../../catalog/parts.js';
import { currentModelRecords, type ModelRecord } from '../../part-models/model-library.js';
import { publicBase, type ApiContext } from '../../http/context.js';
import { notFound } from '../../http/http-error.js';
import { requireAuth } from '../require-auth.js';
import { availablePartsQuery, PART_ID, partsBody } from '../schemas.js';
import { parseOr400 } from '../../http/validate.js';
import { partImageUrl } from './assets.js';

export const DEFAULT_LIMIT = 20;

/** The `model` field: the part's current model in brief, or null (procedural). */
export function modelField(
  m: ModelRecord | undefined,
): { sha256: string; triangles: number; updated_at: string } | null {
  // updated_at: when the row was added (after a rollback, the restored model's own date)
  return m ? { sha256: m.sha256, triangles: m.triangles ?? 0, updated_at: new Date(m.createdAt).toISOString() } : null;
}

export function partsRoutes(ctx: ApiContext): Router {
  const r = Router();
  const base = (req: Request) => publicBase(ctx, req);

  r.get('/available-parts', requireAuth(ctx, 'data:read'), async (req, res) => {
    const q = parseOr400(availablePartsQuery, req.query, 'query');
    const limit = q.limit ?? DEFAULT_LIMIT;
    const skip = q.skip ?? 0;
    const { items, total } = await listParts(ctx.db, q.category, { limit, skip });
    // one query for the page's models, not one per part
    const models = await currentModelRecords(
      ctx.db,
      items.map((p) => p.id),
    );
    const b = base(req);
    res.json({
      data: {
        [q.category]: items.map((p) => ({
          id: p.id,
          name: p.name,
          image: partImageUrl(b, p.id),
          model: modelField(models[p.id]),
        })),
      },
      category: q.category,
      pagination: { total, limit, skip, hasNext: skip + items.length < total, hasPrev: skip > 0 },
    });
  });

  r.post('/parts', requireAuth(ctx, 'data:read'), async (req, res) => {
    const { ids } = parseOr400(partsBody, req.body, 'body');
    const unique = [...new Set(ids)];
    const [rows, models] = unique.length
      ? await Promise.all([getPartsByIds(ctx.db, unique), currentModelRecords(ctx.db, unique)])
      : [[], {}];
    const byId = new Map(rows.map((p) => [p.id, p]));
    const b = base(req);
    // request order, unknown IDs left out (they are simply not available)
    const parts = unique
      .map((id) => byId.get(id))
      .filter((p) => p !== undefined)
      .map((p) => ({
        id: p.id,
        name: p.name,
        image: partImageUrl(b, p.id),
        category: p.category,
        model: modelField(models[p.id]),
      }));
    res.json({ parts });
  });

  r.get('/part/:id', requireAuth(ctx, 'data:read'), async (req, res) => {
    const id = req.params.id as string;
    const unknown = () =>
      notFound('part_not_found', `no part "${id}": see GET /available-parts for the part IDs`, [
        { field: 'id', message: 'unknown part ID' },
      ]);
    if (!PART_ID.test(id)) throw unknown();
    const [[part], models] = await Promise.all([getPartsByIds(ctx.db, [id]), currentModelRecords(ctx.db, [id])]);
    if (!part) throw unknown();
    res.json({
      id: part.id,
      name: part.name,
      image: partImageUrl(base(req), part.id),
      category: part.category,
      model: modelField(models[part.id]),
    });
  });
  return r;
}
