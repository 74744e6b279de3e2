/**
 * Render endpoints (docs/api.md, "Endpoints"; the legacy one is in legacy.ts): validate, submit to the job farm, poll.
 * Jobs belong to customers; renders are shared and content-addressed (src/jobs/submit.ts).
 */
import { Router, type Request, type Response } from 'express';
import { buildForShareCode } from '../../catalog/builds.js';
import { checkPartsMap } from '../../model/parts-map.js';
import type { PartIdMap } from '../../model/part.js';
import type { InteractiveState } from '../../model/interactive-state.js';
import { cancelJob, pollJob, waitForJob, type PolledJob } from '../../jobs/jobs-repository.js';
import { expiredJobError } from '../../jobs/expired-jobs.js';
import { jobView } from '../../jobs/job-view.js';
import { submitRender, type Submission } from '../../jobs/submit.js';
import { submissions } from '../../metrics.js';
import type { RenderOptions } from '../../model/render-options.js';
import { publicBase, type ApiContext } from '../../http/context.js';
import { badRequest, notFound } from '../../http/http-error.js';
import { requireAuth } from '../require-auth.js';
import { renderBuildBody, renderByShareCodeBody } from '../schemas.js';
import { parseOr400 } from '../../http/validate.js';
import { isUuid } from '../../model/uuid.js';
import { isFinal } from '../../model/job-status.js';

/** Async renders run only in prod (docs/design-decisions.md, "Renders run in prod only"). */
function requireProd(req: Request): void {
  const env = req.query.environment ?? req.principal?.environment;
  if (env !== undefined && env !== 'prod') {
    throw badRequest('unsupported_environment', `renders run only in the prod environment, not ${String(env)}`);
  }
}

/** The parts map's rules (model/parts-map.ts) as a 400; existence is checked on submit. */
export function checkPartsShape(parts: Record<string, string[]>): PartIdMap {
  const check = checkPartsMap(parts);
  if (!check.ok) throw badRequest(check.refusal.code, check.refusal.message, check.refusal.problems);
  return check.parts;
}

async function submit(
  ctx: ApiContext,
  req: Request,
  parts: PartIdMap,
  state: InteractiveState | null,
  options: RenderOptions,
  shareCode?: string,
): Promise<Submission> {
  // unknown part IDs throw UnknownPartsError: 404 part_not_found naming them
  const p = req.principal!;
  const { maxFrameMegapixels, maxJobCostSeconds, maxCustomerInFlightSeconds } = ctx.cfg;
  const limits = { maxFrameMegapixels, maxJobCostSeconds, maxCustomerInFlightSeconds };
  const s = await submitRender(ctx.db, {
    customerId: p.customerId,
    environment: p.environment,
    parts,
    state,
    options,
    shareCode,
    limits,
  });
  submissions.inc({ outcome: s.outcome, format: s.render.format });
  // hits (cached, reused) are most submissions under load: counted above, logged at debug
  const level = s.outcome === 'new' ? 'info' : 'debug';
  ctx.log[level](
    { jobId: s.jobId, renderId: s.render.id, outcome: s.outcome, customer: p.customerName },
    'render submitted',
  );
  return s;
}

/** The submission response (docs/api.md; plus share_code on share-code submissions). */
async function submissionBody(ctx: ApiContext, req: Request, s: Submission, shareCode?: string) {
  const body: Record<string, unknown> = {
    job_id: s.jobId,
    status: s.outcome === 'cached' ? 'completed' : 'processing',
  };
  if (s.outcome === 'cached') {
    const view = await jobView(s.jobId, s.render, urlFor(ctx, req));
    Object.assign(body, {
      url: view.url,
      video_url: view.video_url,
      sprite_url: view.sprite_url,
      screenshot_url: view.screenshot_url,
      end_time: view.end_time,
      ...(view.sprite ? { sprite: view.sprite } : {}),
      cached: true,
    });
  }
  if (s.outcome === 'reused') body.reused = true;
  if (shareCode) body.share_code = shareCode;
  return body;
}

function urlFor(ctx: ApiContext, req: Request) {
  const base = publicBase(ctx, req);
  return (key: string) => ctx.store.url(key, base);
}

/** A job as the API returns it, with its share code and submission time. */
function recordView(ctx: ApiContext, req: Request, job: PolledJob) {
  return jobView(job.jobId, job.render, urlFor(ctx, req), { shareCode: job.shareCode, createdAt: job.createdAt });
}

/** A handler for one of the customer's own jobs by id (poll, cancel): a malformed, unknown or expired id is a 404 saying which. */
function ownJob(ctx: ApiContext, act: (id: string, req: Request) => Promise<PolledJob | null>) {
  return async (req: Request, res: Response) => {
    const id = String(req.params.jobId);
    if (!isUuid(id)) throw notFound('job_not_found', 'job ids are UUIDs; no such job');
    const job = await act(id, req);
    if (!job)
      throw (
        (await expiredJobError(ctx.db, id, req.principal!.customerId)) ??
        notFound('job_not_found', `no job ${id} for this customer`)
      );
    res.setHeader('Cache-Control', 'no-store');
    res.json(await recordView(ctx, req, job));
  };
}

/** A /render-build style body, every rule checked: the parts map and the render options. */
function parseRenderBuild(req: Request): { parts: PartIdMap; options: RenderOptions } {
  const body = parseOr400(renderBuildBody, req.body, 'body');
  requireProd(req);
  const { parts, ...options } = body;
  return { parts: checkPartsShape(parts), options };
}

export function renderRoutes(ctx: ApiContext): Router {
  const r = Router();
  const submitAuth = requireAuth(ctx, 'render:submit');

  r.post('/render-build', submitAuth, async (req, res) => {
    const { parts, options } = parseRenderBuild(req);
    const s = await submit(ctx, req, parts, null, options);
    res.status(s.outcome === 'new' ? 202 : 200).json(await submissionBody(ctx, req, s));
  });

  r.post('/render-by-share-code', submitAuth, async (req, res) => {
    const body = parseOr400(renderByShareCodeBody, req.body, 'body');
    requireProd(req);
    const { shareCode, ...options } = body;
    const build = await buildForShareCode(ctx.db, shareCode);
    const s = await submit(ctx, req, build.parts, build.state, options, build.shareCode);
    res.status(s.outcome === 'new' ? 202 : 200).json(await submissionBody(ctx, req, s, build.shareCode));
  });

  r.post('/internal-render', submitAuth, async (req, res) => {
    const { parts, options } = parseRenderBuild(req);
    const s = await submit(ctx, req, parts, null, options);
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const done = await waitForJob(
      ctx.db,
      s.jobId,
      req.principal!,
      ctx.cfg.internalRenderWaitSeconds * 1000,
      abort.signal,
    );
    const view = await recordView(ctx, req, done);
    // 200 once final; 202 with the current state when the wait bound passed first
    res.status(isFinal(view.status) ? 200 : 202).json(view);
  });

  // scoped by customer and by the credential's environment; polling records retention's
  // last-requested time (at most a write a minute) in the same statement
  r.get(
    '/render-build/:jobId',
    requireAuth(ctx, 'render:status'),
    ownJob(ctx, (id, req) => pollJob(ctx.db, id, req.principal!)),
  );
  // cancel (docs/console.md): the customer's own job, unless another customer's identical request shares its render (409)
  r.post(
    '/render-build/:jobId/cancel',
    requireAuth(ctx, 'render:submit'),
    ownJob(ctx, (id, req) => cancelJob(ctx.db, id, req.principal!)),
  );
  return r;
}
