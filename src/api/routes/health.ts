/** GET /health: no auth; queue depth, live workers and their GL backends; 503 when the database is unreachable. */
import { Router } from 'express';
import { sql } from 'kysely';
import { queueCounts } from '../../jobs/queue/counts.js';
import { liveWorkers } from '../../jobs/workers-repository.js';
import type { ApiContext } from '../../http/context.js';
import { DB_RETRY_AFTER_S } from '../../http/db-availability.js';

export function healthRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/health', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      await sql`SELECT 1`.execute(ctx.db.db);
    } catch (err) {
      ctx.dbAvailability.down(err);
      res.setHeader('Retry-After', String(DB_RETRY_AFTER_S));
      res.status(503).json({
        status: 'degraded',
        version: ctx.version,
        db: 'down',
        queue: { queued: 0, processing: 0 },
        workers: 0,
      });
      return;
    }
    // a pool that kept its connections through a partial outage makes no new one: say so here
    ctx.dbAvailability.up();
    const [queue, workers] = await Promise.all([queueCounts(ctx.db.db), liveWorkers(ctx.db)]);
    res.json({
      status: 'ok',
      version: ctx.version,
      db: 'ok',
      queue,
      workers: workers.length,
      // GL backend of each live worker (egl = Mesa llvmpipe or a GPU; swiftshader = CPU fallback)
      renderers: workers.map((w) => ({ worker: w.id, ...(w.backend ?? {}) })),
    });
  });
  return r;
}
