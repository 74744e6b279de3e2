/** Route guard: authenticates the request and checks one scope (401 / 403: docs/design-decisions.md, "Credentials"). */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticate, DEPRECATION_NOTICE } from '../auth/authenticate.js';
import { hasScope, isAdminScope, type Scope } from '../auth/scopes.js';
import type { ApiContext } from '../http/context.js';
import { UserError } from '../errors.js';
import { forbidden } from '../http/http-error.js';
import { takeRequestBudget, tooManyRequests } from '../http/rate-limit.js';

/**
 * Browsers send Sec-Fetch-Site and Sec-Fetch-Dest on every request; Sec-Fetch-Mode alone is
 * not a browser sign, because Node's built-in fetch sends it too.
 */
function fromBrowser(req: Request): boolean {
  return req.get('sec-fetch-site') !== undefined || req.get('sec-fetch-dest') !== undefined;
}

/**
 * A failed authentication that counts against the client address: every 401 but an expired
 * token, which well-behaved clients hit routinely before they refresh.
 */
function countsAsFailure(err: unknown): boolean {
  return err instanceof UserError && err.status === 401 && err.code !== 'token_expired';
}

export function requireAuth(ctx: ApiContext, scope: Scope | null, opts: { apiKeyOnly?: boolean } = {}): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    // an address that keeps failing is refused before any lookup (guessing keys costs reads)
    const address = req.ip ?? 'unknown';
    const wait = ctx.authFailures.wait(address);
    if (wait > 0) {
      throw tooManyRequests(
        'too_many_auth_failures',
        `too many failed authentications from this address; retry in ${wait} s`,
        wait,
      );
    }
    let result;
    try {
      result = await authenticate(
        ctx.db.db,
        ctx.secret,
        {
          authorization: req.get('authorization'),
          environment: req.query.environment,
          origin: req.get('origin'),
          secFetch: fromBrowser(req),
        },
        { allowSessionTokens: !opts.apiKeyOnly, caches: ctx.authCaches },
      );
    } catch (err) {
      if (countsAsFailure(err)) ctx.authFailures.spend(address);
      throw err;
    }
    if (result.deprecatedBrowserKey) res.setHeader('X-Service-Auth-Deprecation', DEPRECATION_NOTICE);
    takeRequestBudget(ctx.rateLimiter, ctx.customerRateLimiter, result.principal);
    if (scope && !hasScope(result.principal.scopes, scope)) {
      // admin scopes: the caller authenticated fine but with the wrong kind of credential, so say which one works
      if (isAdminScope(scope) && result.principal.kind === 'session') {
        throw forbidden(
          'admin_key_required',
          `session tokens cannot carry ${scope}: call this endpoint with an admin API key (render-farm keys create --admin)`,
        );
      }
      if (isAdminScope(scope)) {
        throw forbidden(
          'missing_scope',
          `this API key lacks the ${scope} scope: use an admin API key (render-farm keys create --admin)`,
        );
      }
      throw forbidden('missing_scope', `this token lacks the ${scope} scope`);
    }
    req.principal = result.principal;
    next();
  };
}
