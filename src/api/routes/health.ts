/** GET /health: no auth; 503 when the database is unreachable. */
import { Router } from 'express';
import { sql } from 'kysely';
import type { ApiContext } from '../context.js';

export function healthRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/health', async (_req, res) => {
    let db: 'ok' | 'down' = 'ok';
    try {
      await sql`SELECT 1`.execute(ctx.db.db);
    } catch {
      db = 'down';
    }
    res.setHeader('Cache-Control', 'no-store');
    res.status(db === 'ok' ? 200 : 503).json({
      status: db === 'ok' ? 'ok' : 'degraded',
      version: ctx.version,
      db,
      // the job farm (graphile-worker queue and workers) is not part of this version yet
      queue: { queued: 0, processing: 0 },
      workers: 0,
      renderer: ctx.renderer?.() ?? null,
    });
  });
  return r;
}
