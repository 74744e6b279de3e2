/** GET /metrics: Prometheus text format (no auth: bind the API to a private network or scrape through a proxy). */
import { Router } from 'express';
import { queueCounts } from '../../jobs/queue/counts.js';
import { liveWorkers } from '../../jobs/workers-repository.js';
import { storeUsage } from '../../jobs/store-usage.js';
import {
  chunkCount,
  liveWorkerCount,
  processing,
  queueDepth,
  registry,
  storeBytes,
  storeRenders,
  storeSwept,
} from '../../metrics.js';
import type { ApiContext } from '../../http/context.js';

export function metricsRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/metrics', async (_req, res) => {
    try {
      const [q, w] = await Promise.all([queueCounts(ctx.db.db), liveWorkers(ctx.db)]);
      for (const [kind, c] of Object.entries(q.by_kind)) {
        queueDepth.set({ kind }, c.queued);
        processing.set({ kind }, c.processing);
      }
      chunkCount.set({ state: 'queued' }, q.chunks.queued);
      chunkCount.set({ state: 'processing' }, q.chunks.processing);
      liveWorkerCount.set(w.length);
      const u = await storeUsage(ctx.db, { pregen: true });
      storeBytes.set({ kind: 'renders' }, u.renderBytes);
      storeBytes.set({ kind: 'pregen' }, u.pregen?.bytes ?? 0);
      storeRenders.set(u.renders);
      storeSwept.set({ what: 'renders' }, u.sweptRenders);
      storeSwept.set({ what: 'bytes' }, u.sweptBytes);
      storeSwept.set({ what: 'rows' }, u.rowsDeleted);
    } catch {
      // database down: the process metrics are still worth serving
    }
    res.type(registry.contentType).send(await registry.metrics());
  });
  return r;
}
