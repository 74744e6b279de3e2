/**
 * Starts the HTTP API: database (migrated, queue schema installed), demo catalog on an empty
 * database, signing secret, artifact store, dead-worker sweeper, Express app. Library
 * function: the CLI's `serve` and `up` and the tests call it.
 */
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import type { Config } from '../config.js';
import { openDatabase, type Db } from '../db/database.js';
import { createAuthCaches } from '../auth/auth-caches.js';
import { resolveSigningSecret } from '../auth/signing-secret.js';
import { installQueue } from '../jobs/queue/runner.js';
import { startSweeper } from '../jobs/sweeper.js';
import { createLogger, type Logger } from '../log.js';
import { openArtifactStore } from '../storage/open-artifact-store.js';
import { VERSION } from '../version.js';
import { createApp } from './app.js';
import { DbAvailability } from '../http/db-availability.js';
import { RenderEventHub } from '../events/render-event-hub.js';
import { RateLimiter } from '../http/rate-limit.js';
import type { ApiContext } from '../http/context.js';

export interface RunningServer {
  url: string;
  port: number;
  ctx: ApiContext;
  close(): Promise<void>;
}

export interface StartOptions {
  /** reuse an open database (tests, `up`); otherwise one is opened and closed with the server */
  db?: Db;
  log?: Logger;
}

export async function startServer(cfg: Config, opts: StartOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger(cfg);
  const db =
    opts.db ?? (await openDatabase(cfg, { migrate: true, log: (l) => log.debug({ component: 'postgres' }, l) }));
  let stopSweeper = () => {};
  let stopListening = () => {};
  try {
    await installQueue(db.pool);
    if (cfg.seedDemo) {
      const { seedDemoCatalog } = await import('../catalog/seed-demo.js');
      const seeded = await seedDemoCatalog(db);
      if (seeded.parts || seeded.builds) log.info(seeded, 'seeded the demo catalog');
    }
    const secret = await resolveSigningSecret(cfg, db.db);
    const store = await openArtifactStore(cfg);
    const rateLimiter = new RateLimiter(cfg.rateLimitPerMinute, cfg.rateLimitBurst);
    const events = new RenderEventHub(db.connectionString, (m) => log.warn(m));
    const dbAvailability = new DbAvailability(log);
    // a new connection after an outage is the database back (the pool reconnects on demand)
    const onConnect = () => dbAvailability.up();
    db.pool.on('connect', onConnect);
    stopListening = () => db.pool.removeListener('connect', onConnect);
    const customerRateLimiter = new RateLimiter(cfg.customerRateLimitPerMinute, cfg.customerRateLimitBurst);
    const authFailures = new RateLimiter(cfg.authFailureLimitPerMinute, cfg.authFailureBurst);
    const shutdown = new AbortController();
    const ctx: ApiContext = {
      cfg,
      db,
      secret,
      log,
      version: VERSION,
      store,
      rateLimiter,
      customerRateLimiter,
      authFailures,
      authCaches: createAuthCaches(),
      dbAvailability,
      events,
      shutdown: shutdown.signal,
    };
    stopSweeper = startSweeper(
      db,
      (r) => log.warn(r, 'freed the jobs of dead workers'),
      undefined,
      undefined,
      cfg.workerDeadAfterSeconds,
    );
    const app = createApp(ctx);
    const server = http.createServer(app);
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          err.code === 'EADDRINUSE'
            ? new Error(`port ${cfg.port} on ${cfg.host} is in use: pass --port or set PORT`)
            : err,
        ),
      );
      server.listen(cfg.port, cfg.host, resolve);
    });
    const port = (server.address() as AddressInfo).port;
    const host = cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host;
    const url = cfg.publicBaseUrl?.replace(/\/+$/, '') ?? `http://${host}:${port}`;
    const { startWebhookDeliveries } = await import('../webhooks/delivery-runner.js');
    const deliveries = cfg.webhookConcurrency > 0 ? await startWebhookDeliveries(cfg, db, store, log, url) : null;
    return {
      url,
      port,
      ctx,
      close: async () => {
        shutdown.abort();
        stopSweeper();
        stopListening();
        // ends open event streams, which would otherwise hold server.close() for seconds
        await events.close();
        await deliveries?.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // in-flight requests get a few seconds, then the rest are cut
          setTimeout(() => server.closeAllConnections(), 5_000).unref();
        });
        if (!opts.db) await db.close();
      },
    };
  } catch (err) {
    stopSweeper();
    stopListening();
    if (!opts.db) await db.close();
    throw err;
  }
}
