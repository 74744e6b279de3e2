/** POST /auth/render-session (docs/api.md, "Endpoints"): an API key mints a short-lived session token. */
import { Router } from 'express';
import { DEFAULT_TOKEN_SCOPES } from '../../auth/scopes.js';
import { DEFAULT_TTL, mintSessionToken } from '../../auth/session-token.js';
import type { ApiContext } from '../../http/context.js';
import { badRequest } from '../../http/http-error.js';
import { requireAuth } from '../require-auth.js';
import { renderSessionBody } from '../schemas.js';
import { parseOr400 } from '../../http/validate.js';

export function authRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.post('/auth/render-session', requireAuth(ctx, null, { apiKeyOnly: true }), (req, res) => {
    const body = parseOr400(renderSessionBody, req.body ?? {}, 'body');
    if (body.ttl_seconds !== undefined && body.ttlSeconds !== undefined && body.ttl_seconds !== body.ttlSeconds) {
      throw badRequest('invalid_body', 'ttl_seconds and ttlSeconds disagree: send one of them', [
        { field: 'ttlSeconds', message: 'conflicts with ttl_seconds' },
      ]);
    }
    const p = req.principal!;
    const token = mintSessionToken(ctx.secret, {
      customerId: p.customerId,
      customerName: p.customerName,
      scopes: body.scopes ? [...new Set(body.scopes)] : DEFAULT_TOKEN_SCOPES,
      // the key's environment, which auth already checked against ?environment=
      environment: p.environment,
      ttlSeconds: body.ttl_seconds ?? body.ttlSeconds ?? DEFAULT_TTL,
      origin: body.origin,
      keyId: p.keyId,
    });
    res.setHeader('Cache-Control', 'no-store');
    res.json(token);
  });
  return r;
}
