/**
 * GET /render-build/:jobId/events: the job's events as Server-Sent Events, instead of polling.
 * Same scope and ownership as GET /render-build/:jobId. EventSource cannot send headers, so a
 * session token may come as `?access_token=` (API keys may not: URLs end up in logs).
 * Events come from PostgreSQL (LISTEN/NOTIFY + the render_events log), so any serve process
 * streams any job, and `Last-Event-ID` resumes.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import { looksLikeApiKey } from '../../auth/api-keys.js';
import { followJob } from '../../events/follow-job.js';
import { renderEventState } from '../../events/render-events-repository.js';
import { isFinal } from '../../model/job-status.js';
import { expiredJobError } from '../../jobs/expired-jobs.js';
import { getJobForCustomer } from '../../jobs/jobs-repository.js';
import { jobView } from '../../jobs/job-view.js';
import { publicBase, type ApiContext } from '../../http/context.js';
import { HttpError, notFound, unauthorized } from '../../http/http-error.js';
import { requireAuth } from '../require-auth.js';
import { openEventStream } from '../../http/sse-stream.js';
import { isUuid } from '../../model/uuid.js';

/** `?access_token=` becomes the bearer credential when no Authorization header is sent. */
function tokenFromQuery(req: Request, _res: Response, next: NextFunction): void {
  const t = req.query.access_token;
  if (t === undefined || req.get('authorization')) return next();
  if (typeof t !== 'string' || !t) throw unauthorized('invalid_credentials', 'access_token must be one session token');
  if (looksLikeApiKey(t)) {
    throw unauthorized(
      'api_key_in_url',
      'API keys must not be sent in URLs (they end up in logs): mint a session token and pass that as access_token',
    );
  }
  req.headers.authorization = `Bearer ${t}`;
  next();
}

/** Last-Event-ID header (EventSource sends it on reconnect), or `?lastEventId=` for polyfills. */
function lastEventId(req: Request): number | undefined {
  const raw = req.get('last-event-id') ?? req.query.lastEventId;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

export function jobEventRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/render-build/:jobId/events', tokenFromQuery, requireAuth(ctx, 'render:status'), async (req, res) => {
    const id = String(req.params.jobId);
    if (!isUuid(id)) throw notFound('job_not_found', 'job ids are UUIDs; no such job');
    const job = await getJobForCustomer(ctx.db, id, req.principal!);
    if (!job)
      throw (
        (await expiredJobError(ctx.db, id, req.principal!.customerId)) ??
        notFound('job_not_found', `no job ${id} for this customer`)
      );
    const hub = ctx.events;
    if (!hub)
      throw new HttpError(
        503,
        'events_unavailable',
        'job events are not available on this server: poll GET /render-build/{jobId}',
      );
    const resumeAfter = lastEventId(req);
    if (resumeAfter !== undefined) {
      const state = await renderEventState(ctx.db, job.render.id);
      // the client already saw the final event: 204 tells EventSource to stop reconnecting
      if (state && isFinal(state.status) && resumeAfter >= state.lastEventId) {
        res.status(204).end();
        return;
      }
    }
    const stream = await openEventStream(hub, res, ctx.cfg.eventsHeartbeatSeconds * 1000);
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const base = publicBase(ctx, req);
    try {
      await followJob(ctx.db, hub, job, {
        lastEventId: resumeAfter,
        signal: abort.signal,
        emit: (e) => stream.send(e.event, e.data, e.id),
        view: (j) =>
          jobView(j.jobId, j.render, (key) => ctx.store.url(key, base), {
            shareCode: j.shareCode,
            createdAt: j.createdAt,
          }),
      });
    } catch (err) {
      // headers are sent: end the stream; the client reconnects with Last-Event-ID
      ctx.log.warn({ jobId: id, err: (err as Error).message }, 'job event stream failed');
    } finally {
      stream.end();
    }
  });
  return r;
}
