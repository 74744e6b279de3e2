/**
 * The web console (issue 21), mounted by the API app at /console: the page shell and its
 * bundle, sign-in/out, and the JSON the pages read (shapes: console-api.ts). Every answer comes
 * from the queries the CLI uses (farmSnapshot as `top`, listJobs/getJob/jobChunks/retryJob/
 * retryFailed/cancelJob as `jobs`, getWorkerDetail/requestDrain as `workers`, listCache as
 * `pregen ls`, the catalog and key/webhook repositories): this file maps them.
 * A customer's console key sees its own jobs in its environment; an admin key sees every
 * customer's, and the keys and webhooks.
 */
import { Router, type Request, type Response } from 'express';
import { ADMIN_KEY_SCOPES, API_KEY_SCOPES, CONSOLE_KEY_SCOPES, type Environment } from '../auth/scopes.js';
import { listApiKeys } from '../auth/api-keys.js';
import { closeConsoleSession, ConsoleCredentialsError, csrfToken, openConsoleSession, type ConsoleSession } from '../auth/console-session.js';
import { buildForShareCode, getBuild, listBuilds } from '../catalog/builds.js';
import { getPartsByIds, listParts } from '../catalog/parts.js';
import { CATEGORIES, isCategory, type Category } from '../model/part.js';
import { cancelJob, getJob, getJobForCustomer, jobChunks, listJobs, retryJob, sharedWithOthers, type JobRecord } from '../jobs/jobs-repository.js';
import { jobView } from '../jobs/job-view.js';
import { MAX_SEARCH_LENGTH } from '../jobs/job-search.js';
import { failedRenders, retryFailed } from '../jobs/retry-failed.js';
import { getWorkerDetail, requestDrain } from '../jobs/workers-repository.js';
import { submitRender } from '../jobs/submit.js';
import { farmSnapshot, rendersPerMinute } from '../top/farm-snapshot.js';
import { cacheOverview, fillCache } from '../pregen/cache-status.js';
import { FORMATS, PROFILES, type Format, type Profile } from '../model/render-defaults.js';
import { listDeliveries, listWebhooks } from '../webhooks/webhooks-repository.js';
import { rendererVersion } from '../render/renderer-version.js';
import { publicBase, type ApiContext } from '../api/context.js';
import { badRequest, HttpError, notFound } from '../api/http-error.js';
import { tooManyRequests } from '../api/rate-limit.js';
import { SseStream } from '../api/sse-stream.js';
import type * as Api from './console-api.js';
import { CONSOLE_HTML, consoleAssets, type ConsoleAsset } from './console-bundle.js';
import { clearSessionCookie, requireAdmin, requireSession, securityHeaders, sessionOf, setSessionCookie } from './console-security.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUSES = ['queued', 'processing', 'completed', 'error'] as const;
const WEBHOOK_EVENTS = ['job.completed', 'job.error'];
/** the console's preview: a small, fast sprite */
const PREVIEW = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;
/** the newest pregen entries the page lists (the totals count them all) */
const PREGEN_LISTED = 500;

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

function sessionInfo(ctx: ApiContext, s: ConsoleSession): Api.SessionInfo {
  return { csrf: csrfToken(ctx.secret, s.id), expiresAt: s.expiresAt.toISOString(), customer: s.customerName, admin: s.admin, environment: s.environment };
}

/** The jobs a session may see: an admin's all, a customer key's its own in its environment. */
function owner(s: ConsoleSession): { customerId: string; environment: Environment } | undefined {
  return s.admin ? undefined : { customerId: s.customerId, environment: s.environment };
}

async function findJob(ctx: ApiContext, s: ConsoleSession, id: string): Promise<JobRecord> {
  const o = owner(s);
  const job = UUID.test(id) ? (o ? await getJobForCustomer(ctx.db, id, o) : await getJob(ctx.db, id)) : null;
  if (!job) throw notFound('job_not_found', `no job ${id}${o ? ' for this customer' : ''}`);
  return job;
}

/** What the console shows of a stored request (older rows may lack fields: read loosely). */
function requestOf(j: JobRecord): { parts: Record<string, string[]>; options: { width?: number; height?: number; profile?: string; scene?: string } } {
  const req = (j.render.request ?? {}) as { parts?: Record<string, string[]>; options?: Record<string, unknown> };
  const o = req.options ?? {};
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return { parts: req.parts ?? {}, options: { width: num(o.width), height: num(o.height), profile: str(o.profile), scene: str(o.scene) } };
}

function summary(j: JobRecord, customer: string): Api.JobSummary {
  const r = j.render;
  const { parts, options } = requestOf(j);
  const partCount = Object.values(parts).reduce((n, ids) => n + ids.length, 0);
  return {
    id: j.jobId,
    status: r.status,
    progress: r.status === 'completed' ? 1 : Number(r.progress ?? 0),
    format: r.format,
    kind: customer === 'pregen' ? 'pregen' : 'render',
    customer,
    environment: j.environment,
    build: j.shareCode ?? `${partCount} part${partCount === 1 ? '' : 's'}`,
    size: options.width && options.height ? `${options.width}x${options.height}` : null,
    createdAt: new Date(j.createdAt).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    error: r.error,
  };
}

async function customerName(ctx: ApiContext, customerId: string): Promise<string> {
  const c = await ctx.db.db.selectFrom('customers').select('name').where('id', '=', customerId).executeTakeFirst();
  return c?.name ?? '?';
}

async function fullJob(ctx: ApiContext, req: Request, j: JobRecord): Promise<Api.JobFull> {
  const s = sessionOf(req);
  const view = await jobView(j.jobId, j.render, (key) => ctx.store.url(key, publicBase(ctx, req)), { shareCode: j.shareCode, createdAt: j.createdAt });
  const result =
    j.render.status === 'completed'
      ? {
          ...(view.video_url ? { video: view.video_url } : {}),
          ...(view.sprite_url ? { sprite: view.sprite_url } : {}),
          ...(view.screenshot_url ? { screenshot: view.screenshot_url } : {}),
          spriteLayout: (j.render.sprite_layout as Api.SpriteLayoutView | null) ?? null,
        }
      : null;
  const { parts, options } = requestOf(j);
  const names = new Map((await getPartsByIds(ctx.db, [...new Set(Object.values(parts).flat())])).map((p) => [p.id, p.name]));
  return {
    ...summary(j, await customerName(ctx, j.customerId)),
    parts: Object.entries(parts).flatMap(([category, ids]) => ids.map((id) => ({ category, id, name: names.get(id) ?? null }))),
    profile: options.profile ?? null,
    scene: options.scene ?? null,
    request: j.render.request,
    estimatedCostS: j.render.estimated_cost_s === null ? null : Number(j.render.estimated_cost_s),
    attempts: j.render.attempts,
    shareCode: j.shareCode,
    result,
    // what cancelJob would refuse this session: a customer's key may not cancel a render another customer shares
    mayCancel: (j.render.status === 'queued' || j.render.status === 'processing') && (s.admin || !(await sharedWithOthers(ctx.db, j.render.id, j.customerId))),
  };
}

function queryString(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw badRequest('invalid_query', `${name} must be given once`);
  return v;
}

function oneOf<T extends string>(req: Request, name: string, allowed: readonly T[]): T | undefined {
  const v = queryString(req, name);
  if (v !== undefined && !(allowed as readonly string[]).includes(v)) throw badRequest('invalid_query', `${name} must be one of ${allowed.join(', ')}`);
  return v as T | undefined;
}

function sendAsset(req: Request, res: Response, a: ConsoleAsset, type: string): void {
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('ETag', a.etag);
  if (req.get('if-none-match') === a.etag) {
    res.status(304).end();
    return;
  }
  res.send(a.body);
}

async function assets(ctx: ApiContext) {
  try {
    return await consoleAssets();
  } catch (err) {
    ctx.log.error({ err: (err as Error).message }, 'the console bundle did not build');
    throw new HttpError(503, 'console_unavailable', `the console's page could not be built: ${(err as Error).message.split('\n')[0]}`);
  }
}

export function consoleRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.use('/console', securityHeaders(ctx));

  r.get('/console/app.js', async (req, res) => sendAsset(req, res, (await assets(ctx)).js, 'text/javascript; charset=utf-8'));
  r.get('/console/app.css', async (req, res) => sendAsset(req, res, (await assets(ctx)).css, 'text/css; charset=utf-8'));

  /* ---- session ---------------------------------------------------------------------------- */

  r.post('/console/api/session', async (req, res) => {
    const address = req.ip ?? 'unknown';
    const wait = ctx.authFailures.wait(address);
    if (wait > 0) throw tooManyRequests('too_many_auth_failures', `too many failed sign-ins from this address; retry in ${wait} s`, wait);
    const key = (req.body as { key?: unknown } | undefined)?.key;
    if (typeof key !== 'string' || !key) throw badRequest('invalid_body', 'send {"key": "<API key>"} as JSON');
    let opened;
    try {
      opened = await openConsoleSession(ctx.db.db, ctx.secret, key, ctx.cfg.consoleSessionTtlSeconds);
    } catch (err) {
      if (err instanceof ConsoleCredentialsError) ctx.authFailures.spend(address);
      throw err;
    }
    setSessionCookie(req, res, opened.cookie, (opened.session.expiresAt.getTime() - Date.now()) / 1000);
    res.setHeader('Cache-Control', 'no-store');
    res.json(sessionInfo(ctx, opened.session));
  });

  // everything below needs a session (and a CSRF token for changes)
  r.use('/console/api', requireSession(ctx), (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  r.delete('/console/api/session', async (req, res) => {
    await closeConsoleSession(ctx.db.db, sessionOf(req).id);
    clearSessionCookie(req, res);
    res.json({ signedOut: true });
  });

  r.get('/console/api/me', (req, res) => {
    res.json(sessionInfo(ctx, sessionOf(req)));
  });

  /* ---- overview ---------------------------------------------------------------------------- */

  r.get('/console/api/overview', async (req, res) => {
    const s = sessionOf(req);
    const [snap, perMinute] = await Promise.all([farmSnapshot(ctx.db, { recent: 0, waiting: 0 }), rendersPerMinute(ctx.db, 60)]);
    // a customer sees which worker renders its own jobs, not whose others' are
    let mine: Map<string, string> | null = null;
    if (!s.admin) {
      const renderOf = new Map(snap.running.map((j) => [j.jobId, j.renderId]));
      const renders = [...new Set(snap.workers.map((w) => (w.jobId ? renderOf.get(w.jobId) : undefined)).filter((x): x is string => !!x))];
      const rows = renders.length
        ? await ctx.db.db.selectFrom('jobs').select(['id', 'render_id']).where('render_id', 'in', renders).where('customer_id', '=', s.customerId).where('environment', '=', s.environment).execute()
        : [];
      const jobOfRender = new Map(rows.map((x) => [x.render_id, x.id]));
      mine = new Map(snap.workers.flatMap((w) => (w.jobId && jobOfRender.has(renderOf.get(w.jobId) ?? '') ? [[w.id, jobOfRender.get(renderOf.get(w.jobId)!)!]] : [])));
    }
    const body: Api.Overview = {
      workers: snap.workers.map((w) => ({
        id: w.id,
        host: `${w.host}:${w.pid}`,
        backend: w.backend,
        state: w.state === 'rendering' ? 'busy' : w.state === 'idle' ? 'idle' : 'gone',
        job: mine ? (mine.get(w.id) ?? null) : w.jobId,
        chunk: w.chunk,
        fps: w.fps,
        lastSeen: new Date(snap.at.getTime() - w.heartbeatAgoS * 1000).toISOString(),
      })),
      queues: snap.queue.map((q) => ({ kind: q.kind, waiting: q.queued, running: q.running })),
      perMinute: perMinute.map((m) => ({ t: m.t.toISOString(), count: m.count })),
      failures: { hour: snap.errors.lastHour, day: snap.errors.lastDay },
      store: { bytes: snap.store.bytes, renders: snap.store.renders },
    };
    res.json(body);
  });

  /* ---- workers (operators) ------------------------------------------------------------------ */

  const workerView = async (id: string): Promise<Api.WorkerDetailView> => {
    const w = await getWorkerDetail(ctx.db, id);
    if (!w) throw notFound('worker_not_found', `no worker ${id}`);
    const renders = [...new Set(w.running.map((r) => r.renderId))];
    const jobs = renders.length ? await ctx.db.db.selectFrom('jobs').select(['render_id', 'id']).where('render_id', 'in', renders).orderBy('created_at').execute() : [];
    const jobOf = new Map<string, string>();
    for (const j of jobs) if (!jobOf.has(j.render_id)) jobOf.set(j.render_id, j.id);
    const b = w.backend as { backend?: unknown } | null;
    return {
      id: w.id,
      host: `${w.hostname}:${w.pid}`,
      concurrency: w.concurrency,
      backend: String(b?.backend ?? '-'),
      version: w.version,
      rendererVersion: w.rendererVersion,
      state: w.state,
      startedAt: w.startedAt.toISOString(),
      lastSeen: w.lastSeen.toISOString(),
      stoppedAt: iso(w.stoppedAt),
      uptimeS: w.uptimeS,
      memory: w.memory,
      jobsDone: w.jobsDone,
      jobsFailed: w.jobsFailed,
      lastError: w.lastError,
      lastErrorAt: iso(w.lastErrorAt),
      drainRequestedAt: iso(w.drainRequestedAt),
      running: w.running.map((r) => ({ job: jobOf.get(r.renderId) ?? null, chunk: r.chunk })),
    };
  };

  r.get('/console/api/workers/:id', async (req, res) => {
    // a worker's errors and renders are every customer's: operators only
    requireAdmin(req);
    res.json(await workerView(String(req.params.id)));
  });

  r.post('/console/api/workers/:id/drain', async (req, res) => {
    requireAdmin(req);
    const id = String(req.params.id);
    // the code `render-farm workers drain` runs (DrainRefusedError: 409 saying why)
    const drained = await requestDrain(ctx.db, id);
    if (!drained) throw notFound('worker_not_found', `no worker ${id}`);
    ctx.log.info({ worker: id, by: sessionOf(req).customerName }, 'console: worker drain requested');
    res.json({ worker: await workerView(id), already: drained.already });
  });

  /* ---- jobs -------------------------------------------------------------------------------- */

  r.get('/console/api/jobs', async (req, res) => {
    const s = sessionOf(req);
    const before = queryString(req, 'before');
    if (before !== undefined && !UUID.test(before)) throw badRequest('invalid_query', 'before must be the `next` of the previous page');
    const limitRaw = queryString(req, 'limit');
    const limit = limitRaw === undefined ? 50 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw badRequest('invalid_query', 'limit must be 1 to 200');
    const search = queryString(req, 'q');
    if (search !== undefined && search.length > MAX_SEARCH_LENGTH) throw badRequest('invalid_query', `q (a job id prefix or a share code) must be at most ${MAX_SEARCH_LENGTH} characters`);
    const o = owner(s);
    const list = await listJobs(ctx.db, {
      search,
      status: oneOf(req, 'status', STATUSES),
      format: oneOf(req, 'format', ['video', 'sprite'] as const),
      kind: oneOf(req, 'kind', ['render', 'pregen'] as const),
      environment: o?.environment ?? oneOf(req, 'environment', ['prod', 'staging'] as const),
      ...(o ? { customerId: o.customerId } : { customer: queryString(req, 'customer') }),
      before,
      limit: limit + 1,
    });
    const page = list.slice(0, limit);
    const body: Api.JobsPage = { jobs: page.map((j) => summary(j, j.customer)), next: list.length > limit ? page[page.length - 1]!.jobId : null };
    res.json(body);
  });

  // before /jobs/:id: `retry-failed` is not a job id
  r.get('/console/api/jobs/retry-failed', async (req, res) => {
    const { total } = await failedRenders(ctx.db, owner(sessionOf(req)) ?? {}, 0);
    const body: Api.FailedCount = total;
    res.json(body);
  });

  r.post('/console/api/jobs/retry-failed', async (req, res) => {
    // the code `render-farm jobs retry --failed` runs: each failed render retried as a single retry is
    const s = sessionOf(req);
    const r = await retryFailed(ctx.db, owner(s) ?? {});
    ctx.log.info({ retried: r.retried.length, refused: r.refused.length, remaining: r.remaining, customer: s.customerName }, 'console: retried failed jobs');
    const body: Api.RetryFailedResult = {
      retried: r.retried.map((f) => f.jobId),
      jobs: r.retried.reduce((n, f) => n + f.jobs, 0),
      refused: r.refused.map((f) => ({ id: f.jobId, reason: f.reason })),
      remaining: r.remaining,
    };
    res.json(body);
  });

  r.get('/console/api/jobs/:id', async (req, res) => {
    const job = await findJob(ctx, sessionOf(req), String(req.params.id));
    const chunks = job.render.chunk_total ? await jobChunks(ctx.db, job.render.id) : [];
    const body: Api.JobDetailView = {
      job: await fullJob(ctx, req, job),
      chunks: chunks.map((c) => ({
        idx: c.chunk,
        start: c.start,
        end: c.end,
        status: c.status,
        worker: c.worker,
        startedAt: iso(c.started_at),
        finishedAt: iso(c.finished_at),
        framesDone: c.frames_done,
        attempts: c.attempts,
        error: c.error,
      })),
    };
    res.json(body);
  });

  r.post('/console/api/jobs/:id/retry', async (req, res) => {
    const job = await findJob(ctx, sessionOf(req), String(req.params.id));
    // the code `render-farm jobs retry` runs (RetryRefusedError: 409 saying why)
    const retried = await retryJob(ctx.db, job.jobId);
    if (!retried) throw notFound('job_not_found', `no job ${job.jobId}`);
    res.json({ job: await fullJob(ctx, req, retried) });
  });

  r.post('/console/api/jobs/:id/cancel', async (req, res) => {
    const s = sessionOf(req);
    const job = await findJob(ctx, s, String(req.params.id));
    // the code `render-farm jobs cancel` runs; a customer's key may not cancel a render another customer shares
    const cancelled = await cancelJob(ctx.db, job.jobId, owner(s));
    if (!cancelled) throw notFound('job_not_found', `no job ${job.jobId}`);
    res.json({ job: await fullJob(ctx, req, cancelled) });
  });

  r.get('/console/api/events', async (req, res) => {
    const s = sessionOf(req);
    const hub = ctx.events;
    if (!hub) throw new HttpError(503, 'events_unavailable', 'job events are not available on this server: reload the page to refresh');
    try {
      await hub.listening();
    } catch {
      throw new HttpError(503, 'database_unavailable', 'cannot listen for job events: the database is unreachable; retry shortly', undefined, { 'Retry-After': '5' });
    }
    const stream = new SseStream(res, ctx.cfg.eventsHeartbeatSeconds * 1000);
    const o = owner(s);
    // one lookup per event: which of this session's jobs wait on the render (a render is shared)
    const unsubscribe = hub.subscribeAll((m) => {
      if (m.kind === 'resync') return stream.send('resync', {});
      if (m.kind === 'closed') return stream.end();
      let q = ctx.db.db.selectFrom('jobs as j').innerJoin('renders as r', 'r.id', 'j.render_id').select(['j.id', 'r.status', 'r.progress', 'r.error']).where('j.render_id', '=', m.render);
      if (o) q = q.where('j.customer_id', '=', o.customerId).where('j.environment', '=', o.environment);
      q.execute().then(
        (rows) => {
          for (const j of rows) {
            const e: Api.JobEvent = { id: j.id, status: j.status, progress: j.status === 'completed' ? 1 : Number(j.progress ?? 0), error: j.error };
            stream.send('job', e);
          }
        },
        (err: Error) => ctx.log.debug({ err: err.message }, 'console event lookup failed'),
      );
    });
    res.on('close', () => {
      unsubscribe();
      stream.end();
    });
  });

  /* ---- catalog, preview, pregen ---------------------------------------------------------- */

  r.get('/console/api/catalog/parts', async (req, res) => {
    const category = queryString(req, 'category');
    if (category !== undefined && !isCategory(category)) throw badRequest('invalid_query', `category must be one of ${CATEGORIES.join(', ')}`);
    const categories: readonly Category[] = category ? [category as Category] : CATEGORIES;
    const pages = await Promise.all(categories.map((c) => listParts(ctx.db, c, { limit: 200, skip: 0 })));
    const parts = await getPartsByIds(ctx.db, pages.flatMap((p) => p.items.map((i) => i.id)));
    const body: { parts: Api.CatalogPart[] } = {
      parts: parts.map((p) => ({ id: p.id, name: p.name, category: p.category, specs: { ...p.specs }, thumbnail: `/assets/parts/${encodeURIComponent(p.id)}` })),
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
    const shareCode = (req.body as { shareCode?: unknown } | undefined)?.shareCode;
    if (typeof shareCode !== 'string' || !shareCode) throw badRequest('invalid_body', 'send {"shareCode": "<a saved build>"} as JSON');
    if (s.environment !== 'prod') throw badRequest('unsupported_environment', `renders run only in the prod environment, not ${s.environment}`);
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
    const b = (req.body ?? {}) as { format?: unknown; profile?: unknown };
    if (!FORMATS.includes(b.format as Format) || !PROFILES.includes(b.profile as Profile)) {
      throw badRequest('invalid_body', `send {"format": ${FORMATS.map((f) => `"${f}"`).join(' | ')}, "profile": ${PROFILES.map((p) => `"${p}"`).join(' | ')}} as JSON`);
    }
    const variant = { format: b.format as Format, profile: b.profile as Profile };
    const queued = await fillCache({ db: ctx.db, store: ctx.store, rendererVersion: await rendererVersion() }, variant, ctx.shutdown ?? new AbortController().signal, (err) =>
      ctx.log.warn({ err: err.message }, 'console pregen fill: following the farm renders failed; run it again to pick them up'),
    );
    res.json({ queued });
  });

  /* ---- keys and webhooks (operators) ----------------------------------------------------- */

  r.get('/console/api/keys', async (req, res) => {
    requireAdmin(req);
    const keys = await listApiKeys(ctx.db.db);
    const body: Api.KeyView[] = keys.map((k) => ({
      id: k.id,
      prefix: k.prefix,
      customer: k.customerName,
      scopes: [...(k.admin ? ADMIN_KEY_SCOPES : k.console ? CONSOLE_KEY_SCOPES : API_KEY_SCOPES)],
      admin: k.admin,
      createdAt: new Date(k.createdAt).toISOString(),
      lastUsedAt: iso(k.lastUsedAt),
      revokedAt: iso(k.revokedAt),
    }));
    res.json(body);
  });

  r.get('/console/api/webhooks', async (req, res) => {
    requireAdmin(req);
    const hooks = await listWebhooks(ctx.db, { includeDisabled: true });
    const body: Api.WebhookView[] = hooks.map((w) => ({ id: w.id, url: w.url, customer: w.customer, events: WEBHOOK_EVENTS, disabledAt: iso(w.disabledAt) }));
    res.json(body);
  });

  r.get('/console/api/webhooks/:id/deliveries', async (req, res) => {
    requireAdmin(req);
    const id = String(req.params.id);
    if (!UUID.test(id)) throw notFound('webhook_not_found', `no webhook ${id}`);
    const list = await listDeliveries(ctx.db, { webhookId: id, limit: 100 });
    const body: Api.DeliveryView[] = list.map((d) => ({ id: d.id, event: d.event, status: d.status, attempts: d.attempts, lastAttemptAt: iso(d.lastAttemptAt), responseStatus: d.responseStatus }));
    res.json(body);
  });

  // an unknown console API path: the API's 404, not the page shell
  r.use('/console/api', (req) => {
    throw notFound('not_found', `no console endpoint ${req.method} ${req.path}`);
  });

  // the page shell, for /console and any page path under it (the pages route in the browser)
  r.get(['/console', '/console/{*page}'], (_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.send(CONSOLE_HTML);
  });
  return r;
}

/**
 * `/` for browsers (Accept: text/html) goes to the console; API clients (JSON, or no Accept)
 * get what they got before.
 */
export function browserRootRedirect(): Router {
  const r = Router();
  r.get('/', (req, res, next) => {
    if (req.accepts(['application/json', 'text/html']) === 'text/html' && (req.get('accept') ?? '').includes('text/html')) {
      res.redirect(302, '/console/');
      return;
    }
    next();
  });
  return r;
}
