/** One worker's page and its drain (operators only: a worker's errors and renders are every customer's). */
import { Router } from 'express';
import { getWorkerDetail, requestDrain } from '../../jobs/workers-repository.js';
import type { ApiContext } from '../../http/context.js';
import { notFound } from '../../http/http-error.js';
import type * as Api from '../console-api.js';
import { requireAdmin, sessionOf } from '../console-security.js';
import { iso } from '../iso-time.js';

export function workerRoutes(ctx: ApiContext): Router {
  const r = Router();
  const workerView = async (id: string): Promise<Api.WorkerDetailView> => {
    const w = await getWorkerDetail(ctx.db, id);
    if (!w) throw notFound('worker_not_found', `no worker ${id}`);
    const renders = [...new Set(w.running.map((r) => r.renderId))];
    const jobs = renders.length
      ? await ctx.db.db
          .selectFrom('jobs')
          .select(['render_id', 'id'])
          .where('render_id', 'in', renders)
          .orderBy('created_at')
          .execute()
      : [];
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
  return r;
}
