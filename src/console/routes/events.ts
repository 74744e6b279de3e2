/** The pages' live job events (SSE): every render's changes, narrowed to the jobs the session may see. */
import { Router } from 'express';
import type { ApiContext } from '../../http/context.js';
import { HttpError } from '../../http/http-error.js';
import { openEventStream } from '../../http/sse-stream.js';
import type * as Api from '../console-api.js';
import { sessionOf } from '../console-security.js';
import { owner } from '../job-views.js';

export function eventRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/console/api/events', async (req, res) => {
    const s = sessionOf(req);
    const hub = ctx.events;
    if (!hub)
      throw new HttpError(
        503,
        'events_unavailable',
        'job events are not available on this server: reload the page to refresh',
      );
    const stream = await openEventStream(hub, res, ctx.cfg.eventsHeartbeatSeconds * 1000);
    const o = owner(s);
    // one lookup per event: which of this session's jobs wait on the render (a render is shared)
    const unsubscribe = hub.subscribeAll((m) => {
      if (m.kind === 'resync') return stream.send('resync', {});
      if (m.kind === 'closed') return stream.end();
      let q = ctx.db.db
        .selectFrom('jobs as j')
        .innerJoin('renders as r', 'r.id', 'j.render_id')
        .select(['j.id', 'r.status', 'r.progress', 'r.error'])
        .where('j.render_id', '=', m.render);
      if (o) q = q.where('j.customer_id', '=', o.customerId).where('j.environment', '=', o.environment);
      q.execute().then(
        (rows) => {
          for (const j of rows) {
            const e: Api.JobEvent = {
              id: j.id,
              status: j.status,
              progress: j.status === 'completed' ? 1 : Number(j.progress ?? 0),
              error: j.error,
            };
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
  return r;
}
