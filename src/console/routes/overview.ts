/** The overview page: workers, queues, renders per minute, failures, the store (`top`'s snapshot). */
import { Router } from 'express';
import type { ApiContext } from '../../http/context.js';
import { farmSnapshot, rendersPerMinute } from '../../top/farm-snapshot.js';
import type * as Api from '../console-api.js';
import { sessionOf } from '../console-security.js';

export function overviewRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/console/api/overview', async (req, res) => {
    const s = sessionOf(req);
    const [snap, perMinute] = await Promise.all([
      farmSnapshot(ctx.db, { recent: 0, waiting: 0 }),
      rendersPerMinute(ctx.db, 60),
    ]);
    // a customer sees which worker renders its own jobs, not whose others' are
    let mine: Map<string, string> | null = null;
    if (!s.admin) {
      const renderOf = new Map(snap.running.map((j) => [j.jobId, j.renderId]));
      const renders = [
        ...new Set(
          snap.workers.map((w) => (w.jobId ? renderOf.get(w.jobId) : undefined)).filter((x): x is string => !!x),
        ),
      ];
      const rows = renders.length
        ? await ctx.db.db
            .selectFrom('jobs')
            .select(['id', 'render_id'])
            .where('render_id', 'in', renders)
            .where('customer_id', '=', s.customerId)
            .where('environment', '=', s.environment)
            .execute()
        : [];
      const jobOfRender = new Map(rows.map((x) => [x.render_id, x.id]));
      mine = new Map(
        snap.workers.flatMap((w) =>
          w.jobId && jobOfRender.has(renderOf.get(w.jobId) ?? '')
            ? [[w.id, jobOfRender.get(renderOf.get(w.jobId)!)!]]
            : [],
        ),
      );
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
  return r;
}
