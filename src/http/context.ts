/** What every route needs: config, database, signing secret, logger. Built once by the server. */
import type { Request } from 'express';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Logger } from '../log.js';
import type { AuthCaches } from '../auth/auth-caches.js';
import type { Principal } from '../auth/authenticate.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import type { DbAvailability } from './db-availability.js';
import type { RateLimiter } from './rate-limit.js';
import type { RenderEventHub } from '../events/render-event-hub.js';

export interface ApiContext {
  cfg: Config;
  db: Db;
  secret: string;
  log: Logger;
  version: string;
  store: ArtifactStore;
  /** requests per credential (session token or API key) */
  rateLimiter: RateLimiter;
  /** requests per customer, over all its credentials: the ceiling above rateLimiter */
  customerRateLimiter: RateLimiter;
  /** failed authentications per client address */
  authFailures: RateLimiter;
  authCaches: AuthCaches;
  /** outage state: 503s and one log line per change */
  dbAvailability: DbAvailability;
  /** render events over LISTEN/NOTIFY for SSE (absent: the events endpoint answers 503) */
  events?: RenderEventHub;
  /** aborts when the server closes: background work a request started (the console's pregen fill) stops with it */
  shutdown?: AbortSignal;
}

/** host or host:port (a name, IPv4 or [IPv6]); anything else in a Host header is not used in URLs. */
const HOST = /^([a-z0-9._-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/**
 * Base URL for links in responses: PUBLIC_BASE_URL, else the scheme and host the client used.
 * Express takes both from X-Forwarded-Proto/-Host when the peer is a trusted proxy
 * (TRUST_PROXY), so behind a TLS-terminating proxy the links are https like the page.
 */
export function publicBase(ctx: ApiContext, req: Request): string {
  if (ctx.cfg.publicBaseUrl) return ctx.cfg.publicBaseUrl.replace(/\/+$/, '');
  const fallbackHost = req.get('host') ?? `${ctx.cfg.host}:${ctx.cfg.port}`;
  const host = req.host && HOST.test(req.host) ? req.host : fallbackHost;
  const protocol = req.protocol === 'https' || req.protocol === 'http' ? req.protocol : 'http';
  return `${protocol}://${host}`;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      principal?: Principal;
    }
  }
}
