/**
 * Render endpoints (spec 4.3, 4.4, 4.5, 4.8, 4.9). Requests are authenticated and fully
 * validated here; submitting jobs needs the job farm, which this version does not have yet,
 * so valid submissions get 501 `not_implemented` (and there are no jobs to poll).
 */
import { Router, type Request } from 'express';
import { getBuild, getPartsByIds } from '../../catalog/repository.js';
import { CATEGORIES, isCategory } from '../../catalog/types.js';
import { renderOptionsProblem, type RenderOptions } from '../../render/options.js';
import type { ApiContext } from '../context.js';
import { badRequest, HttpError, notFound } from '../http-error.js';
import { requireAuth } from '../require-auth.js';
import { renderBuildBody, renderByShareCodeBody } from '../schemas.js';
import { parseOr400 } from '../validate.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkOptions(o: RenderOptions): void {
  const p = renderOptionsProblem(o);
  if (p) throw badRequest('invalid_body', p.message, [{ field: p.field, message: p.message }]);
}

/** Async renders run only in prod (DESIGN.md section 4). */
function requireProd(req: Request): void {
  const env = req.query.environment ?? req.principal?.environment;
  if (env !== undefined && env !== 'prod') {
    throw badRequest('unsupported_environment', `renders run only in the prod environment, not ${String(env)}`);
  }
}

async function checkParts(ctx: ApiContext, parts: Record<string, string[]>): Promise<void> {
  const categories = Object.keys(parts);
  if (categories.length === 0) throw badRequest('invalid_body', 'parts must not be empty', [{ field: 'parts', message: 'empty' }]);
  const bad = categories.filter((c) => !isCategory(c));
  if (bad.length) {
    throw badRequest(
      'invalid_category',
      `unknown categor${bad.length > 1 ? 'ies' : 'y'} ${bad.join(', ')}: one of ${CATEGORIES.join(', ')}`,
      bad.map((c) => ({ field: `parts.${c}`, message: 'unknown category' })),
    );
  }
  const ids = [...new Set(Object.values(parts).flat())];
  const found = await getPartsByIds(ctx.db, ids);
  const byId = new Map(found.map((p) => [p.id, p]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) {
    throw notFound('part_not_found', `unknown part ID${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`, missing.map((id) => ({ field: 'parts', message: 'not found', id })));
  }
  const misplaced = Object.entries(parts).flatMap(([c, list]) =>
    list.filter((id) => byId.get(id)!.category !== c).map((id) => ({ field: `parts.${c}`, message: `${id} is a ${byId.get(id)!.category}`, id })),
  );
  if (misplaced.length) throw badRequest('invalid_parts', 'parts listed under the wrong category', misplaced);
}

const notYet = () =>
  new HttpError(501, 'not_implemented', 'render jobs need the job farm, which this server version does not include yet');

export function renderRoutes(ctx: ApiContext): Router {
  const r = Router();
  const submit = requireAuth(ctx, 'render:submit');

  r.post(['/render-build', '/internal-render'], submit, async (req) => {
    const body = parseOr400(renderBuildBody, req.body, 'body');
    checkOptions(body);
    requireProd(req);
    await checkParts(ctx, body.parts);
    throw notYet();
  });

  r.post('/render-by-share-code', submit, async (req) => {
    const body = parseOr400(renderByShareCodeBody, req.body, 'body');
    checkOptions(body);
    requireProd(req);
    if (!(await getBuild(ctx.db, body.shareCode))) {
      throw notFound('build_not_found', `no build with share code ${JSON.stringify(body.shareCode)}`);
    }
    throw notYet();
  });

  r.post('/render-build-experimental', submit, async (req) => {
    const body = parseOr400(renderBuildBody, req.body, 'body');
    checkOptions(body);
    await checkParts(ctx, body.parts);
    // nothing is pregenerated until `render-farm pregen` exists
    throw notFound('not_pregenerated', 'this part combination has not been pregenerated');
  });

  r.get('/render-build/:jobId', requireAuth(ctx, 'render:status'), async (req) => {
    const id = String(req.params.jobId);
    if (!UUID.test(id)) throw notFound('job_not_found', 'job ids are UUIDs; no such job');
    throw notFound('job_not_found', `no job ${id} for this customer`);
  });
  return r;
}
