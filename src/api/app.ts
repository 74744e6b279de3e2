/** The Express application: middleware order matters (CORS before auth so 401s carry CORS). */
import express, { type Express } from 'express';
import type { ApiContext } from '../http/context.js';
import { artifactReadRecorder } from '../jobs/render-touch.js';
import { browserRootRedirect, consoleRoutes } from '../console/console-routes.js';
import { cors } from './cors.js';
import { errorMiddleware, notFoundHandler } from '../http/errors.js';
import { jsonBody } from '../http/json-body.js';
import { artifactRoutes } from './routes/artifacts.js';
import { assetRoutes } from './routes/assets.js';
import { authRoutes } from './routes/auth.js';
import { buildRoutes } from './routes/builds.js';
import { docsRoutes } from './routes/docs.js';
import { healthRoutes } from './routes/health.js';
import { jobEventRoutes } from './routes/job-events.js';
import { legacyRoutes } from './routes/legacy.js';
import { metricsRoutes } from './routes/metrics.js';
import { modelRoutes } from './routes/models.js';
import { partsRoutes } from './routes/parts.js';
import { renderRoutes } from './routes/render.js';
import { webhookRoutes } from './routes/webhooks.js';

export function createApp(ctx: ApiContext): Express {
  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-* from these peers give the client address (auth failure limits) and the
  // scheme and host of returned URLs (src/http/context.ts)
  app.set('trust proxy', ctx.cfg.trustProxy);
  app.use(cors);
  // before the JSON parser: PUT /models takes the model file itself as the body
  app.use(modelRoutes(ctx));
  app.use(jsonBody(ctx.cfg.bodyLimit));
  // the web console (/console) and browsers' `/` sent to it (docs/console.md)
  app.use(browserRootRedirect());
  app.use(consoleRoutes(ctx));
  app.use(healthRoutes(ctx));
  app.use(metricsRoutes(ctx));
  app.use(docsRoutes(ctx));
  app.use(assetRoutes(ctx));
  // S3 artifacts are fetched from the bucket (public or presigned URLs), not through the API
  if (ctx.store.kind === 'fs') {
    const onRead = artifactReadRecorder(ctx.db.db, (err) =>
      ctx.log.debug({ err: err.message }, 'last-requested not recorded'),
    );
    app.use(artifactRoutes({ store: ctx.store, log: ctx.log, onRead }));
  }
  for (const routes of [
    authRoutes,
    partsRoutes,
    buildRoutes,
    renderRoutes,
    jobEventRoutes,
    webhookRoutes,
    legacyRoutes,
  ])
    app.use(routes(ctx));
  app.use(notFoundHandler);
  app.use(errorMiddleware(ctx.log, ctx.dbAvailability));
  return app;
}
