/**
 * Turns a request's credentials into a Principal, or a UserError (401, or 400 for a bad
 * environment): API keys (server-side, every scope) and session tokens (scoped, environment-
 * and origin-bound).
 */
import type { Kysely } from 'kysely';
import { UserError } from '../errors.js';
import type { Database } from '../db/schema.js';
import { API_KEY_SCOPES, ENVIRONMENTS, type Environment, type Scope } from './scopes.js';
import { findApiKey, looksLikeApiKey, touchApiKey } from './api-keys.js';
import { verifySessionToken } from './session-token.js';

export interface Principal {
  kind: 'api_key' | 'session';
  customerId: string;
  customerName: string;
  scopes: readonly Scope[];
  environment: Environment;
  keyId?: string;
  tokenId?: string;
}

/** What the auth decision needs of an HTTP request. */
export interface AuthRequest {
  authorization?: string;
  /** the `environment` query parameter, if any */
  environment?: unknown;
  origin?: string;
  /** true when the request carries the Sec-Fetch-Site/Dest headers browsers send */
  secFetch: boolean;
}

export interface AuthResult {
  principal: Principal;
  /** a long-lived key used from a browser: answer with X-Service-Auth-Deprecation */
  deprecatedBrowserKey: boolean;
}

export const DEPRECATION_NOTICE =
  'Long-lived API keys in browsers are deprecated: mint a session token with POST /auth/render-session on your server and send that instead.';

export function requestEnvironment(value: unknown): Environment | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value)) return value as Environment;
  throw new UserError('invalid_environment', `environment must be one of ${ENVIRONMENTS.join(', ')}`);
}

/** Credentials that do not let the request in. */
const unauthorized = (code: string, message: string) => new UserError(code, message, { status: 401 });

function bearer(header: string | undefined): string {
  if (!header) throw unauthorized('missing_credentials', 'send Authorization: Bearer <session token or API key>');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('invalid_credentials', 'the Authorization header must be "Bearer <token>"');
  return m[1];
}

export async function authenticate(
  db: Kysely<Database>,
  secret: string,
  req: AuthRequest,
  opts: { allowSessionTokens?: boolean } = {},
): Promise<AuthResult> {
  const token = bearer(req.authorization);
  const wantedEnv = requestEnvironment(req.environment);
  const fromBrowser = req.origin !== undefined || req.secFetch;

  if (looksLikeApiKey(token)) {
    const key = await findApiKey(db, token);
    if (!key) throw unauthorized('invalid_credentials', 'unknown API key');
    if (key.revokedAt) throw unauthorized('revoked_key', 'this API key has been revoked');
    if (wantedEnv && wantedEnv !== key.environment) {
      throw unauthorized('environment_mismatch', `this API key is for ${key.environment}, not ${wantedEnv}`);
    }
    await touchApiKey(db, key);
    return {
      principal: {
        kind: 'api_key',
        customerId: key.customerId,
        customerName: key.customerName,
        scopes: API_KEY_SCOPES,
        environment: key.environment,
        keyId: key.id,
      },
      deprecatedBrowserKey: fromBrowser,
    };
  }

  if (opts.allowSessionTokens === false) {
    throw unauthorized('api_key_required', 'this endpoint takes a long-lived API key; a session token cannot mint tokens');
  }
  // a TokenError is a 401 token_expired / invalid_token already
  const claims = verifySessionToken(secret, token);
  if (wantedEnv && wantedEnv !== claims.env) {
    throw unauthorized('environment_mismatch', `this token was minted for ${claims.env}, not ${wantedEnv}`);
  }
  if (claims.org) {
    // origin binding protects browsers; non-browser clients could send any Origin anyway
    if (req.origin !== undefined && req.origin !== claims.org) {
      throw unauthorized('origin_mismatch', `this token is bound to ${claims.org}`);
    }
    if (req.origin === undefined && req.secFetch) {
      throw unauthorized('origin_mismatch', `this token is bound to ${claims.org}; the browser sent no Origin`);
    }
  }
  return {
    principal: {
      kind: 'session',
      customerId: claims.sub,
      customerName: claims.cus,
      scopes: claims.scp,
      environment: claims.env,
      keyId: claims.kid,
      tokenId: claims.jti,
    },
    deprecatedBrowserKey: false,
  };
}
