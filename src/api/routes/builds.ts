/** GET /build/:shareCode (docs/api.md, "Endpoints"). */
import { Router } from 'express';
import { BuildNotFoundError, getBuild } from '../../catalog/builds.js';
import { getPartsByIds } from '../../catalog/parts.js';
import { publicBase, type ApiContext } from '../../http/context.js';
import { requireAuth } from '../require-auth.js';
import { shareCodeParams } from '../schemas.js';
import { parseOr400 } from '../../http/validate.js';
import { partImageUrl } from './assets.js';

export function buildRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/build/:shareCode', requireAuth(ctx, 'data:read'), async (req, res) => {
    const { shareCode: code } = parseOr400(shareCodeParams, req.params, 'params');
    const build = code.length <= 64 ? await getBuild(ctx.db, code) : null;
    if (!build) throw new BuildNotFoundError(code);
    const ids = Object.values(build.parts).flat() as string[];
    const rows = await getPartsByIds(ctx.db, [...new Set(ids)]);
    const byId = new Map(rows.map((p) => [p.id, p]));
    const base = publicBase(ctx, req);
    const partDetails: Record<string, { id: string; name: string; image: string; category: string }[]> = {};
    for (const [category, list] of Object.entries(build.parts)) {
      // only parts found in the catalog (docs/design-decisions.md, "Builds show only what the catalog has")
      const found = [...new Set(list as string[])]
        .map((id) => byId.get(id))
        .filter((p) => p !== undefined)
        .map((p) => ({ id: p.id, name: p.name, image: partImageUrl(base, p.id), category: p.category }));
      if (found.length) partDetails[category] = found;
    }
    res.json({
      shareCode: build.shareCode,
      name: build.name,
      description: build.description,
      parts: build.parts,
      partDetails,
      hasInteractiveModel: build.interactiveState != null,
    });
  });
  return r;
}
