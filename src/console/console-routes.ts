/**
 * The web console (docs/console.md), mounted by the API app at /console: the page shell and its
 * bundle, then one router a page or resource (routes/: sign-in and session, overview, workers,
 * jobs, events, catalog, pregen, keys, webhooks) behind the session guard. Every answer comes
 * from the queries the CLI uses (farmSnapshot as `top`, listJobs/getJob/jobChunks/retryJob/
 * retryFailed/cancelJob as `jobs`, getWorkerDetail/requestDrain as `workers`, listCache as
 * `pregen ls`, the catalog and key/webhook repositories); shapes: console-api.ts.
 * A customer's console key sees its own jobs in its environment; an admin key sees every
 * customer's, and the keys and webhooks.
 */
import { Router, type Request, type Response } from 'express';
import type { ApiContext } from '../http/context.js';
import { HttpError, notFound } from '../http/http-error.js';
import { CONSOLE_HTML, consoleAssets, type ConsoleAsset } from './console-bundle.js';
import { requireSession, securityHeaders } from './console-security.js';
import { catalogRoutes } from './routes/catalog.js';
import { eventRoutes } from './routes/events.js';
import { jobRoutes } from './routes/jobs.js';
import { keyRoutes } from './routes/keys.js';
import { overviewRoutes } from './routes/overview.js';
import { pregenRoutes } from './routes/pregen.js';
import { sessionRoutes, signInRoutes } from './routes/session.js';
import { webhookRoutes } from './routes/webhooks.js';
import { workerRoutes } from './routes/workers.js';

function sendAsset(req: Request, res: Response, a: ConsoleAsset, type: string): void {
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('ETag', a.etag);
  if (req.get('if-none-match') === a.etag) {
    res.status(304).end();
    return;
  }
  res.send(a.body);
}

async function assets(ctx: ApiContext) {
  try {
    return await consoleAssets();
  } catch (err) {
    ctx.log.error({ err: (err as Error).message }, 'the console bundle did not build');
    throw new HttpError(
      503,
      'console_unavailable',
      `the console's page could not be built: ${(err as Error).message.split('\n')[0]}`,
    );
  }
}

export function consoleRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.use('/console', securityHeaders(ctx));

  r.get('/console/app.js', async (req, res) =>
    sendAsset(req, res, (await assets(ctx)).js, 'text/javascript; charset=utf-8'),
  );
  r.get('/console/app.css', async (req, res) =>
    sendAsset(req, res, (await assets(ctx)).css, 'text/css; charset=utf-8'),
  );

  r.use(signInRoutes(ctx));

  // everything below needs a session (and a CSRF token for changes)
  r.use('/console/api', requireSession(ctx), (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  for (const routes of [
    sessionRoutes,
    overviewRoutes,
    workerRoutes,
    jobRoutes,
    eventRoutes,
    catalogRoutes,
    pregenRoutes,
    keyRoutes,
    webhookRoutes,
  ])
    r.use(routes(ctx));

  // an unknown console API path: the API's 404, not the page shell
  r.use('/console/api', (req) => {
    throw notFound('not_found', `no console endpoint ${req.method} ${req.path}`);
  });

  // the page shell, for /console and any page path under it (the pages route in the browser)
  r.get(['/console', '/console/{*page}'], (_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.send(CONSOLE_HTML);
  });
  return r;
}

/**
 * `/` for browsers (Accept: text/html) goes to the console; API clients (JSON, or no Accept)
 * get what they got before.
 */
export function browserRootRedirect(): Router {
  const r = Router();
  r.get('/', (req, res, next) => {
    if (
      req.accepts(['application/json', 'text/html']) === 'text/html' &&
      (req.get('accept') ?? '').includes('text/html')
    ) {
      res.redirect(302, '/console/');
      return;
    }
    next();
  });
  return r;
}
