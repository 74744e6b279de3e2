/** What every route needs: config, database, signing secret, logger. Built once by the server. */
import type { Request } from 'express';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Logger } from '../log.js';
import type { Principal } from '../auth/authenticate.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import type { RateLimiter } from './rate-limit.js';
import type { RenderEventHub } from '../events/render-event-hub.js';

export interface ApiContext {
  cfg: Config;
  db: Db;
  secret: string;
  log: Logger;
  version: string;
  store: ArtifactStore;
  rateLimiter: RateLimiter;
  /** render events over LISTEN/NOTIFY for SSE (absent: the events endpoint answers 503) */
  events?: RenderEventHub;
}

/** Base URL for links in responses: PUBLIC_BASE_URL, else the address the client used. */
export function publicBase(ctx: ApiContext, req: Request): string {
  if (ctx.cfg.publicBaseUrl) return ctx.cfg.publicBaseUrl.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? `${ctx.cfg.host}:${ctx.cfg.port}`}`;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      principal?: Principal;
    }
  }
}
