/** /api-docs (Swagger UI from the local swagger-ui-dist package) and /api-docs/openapi.json. */
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { publicBase, type ApiContext } from '../../http/context.js';
import { buildOpenApi, withServer } from '../openapi.js';

const require = createRequire(import.meta.url);

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>render-farm API</title>
<link rel="stylesheet" href="./assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="./assets/swagger-ui-bundle.js"></script>
<script src="./init.js"></script></body></html>`;
const INIT = `window.ui = SwaggerUIBundle({ url: './openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

export function docsRoutes(ctx: ApiContext): Router {
  const r = Router();
  const doc = buildOpenApi(ctx.version, ctx.cfg);
  const uiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  r.get('/api-docs/openapi.json', (req, res) => {
    res.json(withServer(doc, publicBase(ctx, req)));
  });
  r.use('/api-docs/assets', express.static(uiDir, { maxAge: '1d', index: false }));
  r.get('/api-docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  r.get(['/api-docs', '/api-docs/'], (req, res) => {
    // relative asset URLs need the trailing slash
    if (!req.originalUrl.split('?')[0].endsWith('/')) {
      res.redirect(301, '/api-docs/');
      return;
    }
    res.type('html').send(PAGE);
  });
  return r;
}
