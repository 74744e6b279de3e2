/**
 * Turns a request's credentials into a Principal, or a UserError (401, or 400 for a bad
 * environment): API keys (server-side, every token scope; admin keys also the admin scopes)
 * and session tokens (scoped, environment- and origin-bound, never an admin scope).
 */
import type { Kysely } from 'kysely';
import { UserError } from '../errors.js';
import type { Database } from '../db/schema.js';
import {
  ADMIN_KEY_SCOPES,
  API_KEY_SCOPES,
  CONSOLE_KEY_SCOPES,
  ENVIRONMENTS,
  isTokenScope,
  type Environment,
  type Scope,
} from './scopes.js';
import { API_KEY_PATTERN, findApiKey, hashApiKey, isApiKeyRevoked, looksLikeApiKey, touchApiKey } from './api-keys.js';
import type { AuthCaches } from './auth-caches.js';
import { isNullOrigin, normaliseOrigin } from './origin.js';
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

/** The database's answer, trusted for a few seconds (src/auth/auth-caches.ts): every serve sees a revocation. */
async function keyRevoked(db: Kysely<Database>, keyId: string, caches?: AuthCaches): Promise<boolean> {
  const cached = caches?.keyRevoked.get(keyId);
  if (cached !== undefined) return cached;
  const revoked = await isApiKeyRevoked(db, keyId);
  caches?.keyRevoked.set(keyId, revoked);
  return revoked;
}

export async function authenticate(
  db: Kysely<Database>,
  secret: string,
  req: AuthRequest,
  opts: { allowSessionTokens?: boolean; caches?: AuthCaches } = {},
): Promise<AuthResult> {
  const token = bearer(req.authorization);
  const wantedEnv = requestEnvironment(req.environment);
  const fromBrowser = req.origin !== undefined || req.secFetch;

  if (looksLikeApiKey(token)) {
    // malformed keys never reach the database; well-formed unknown ones are remembered a while
    const hash = API_KEY_PATTERN.test(token) ? hashApiKey(token) : null;
    if (hash && opts.caches?.unknownKeys.get(hash)) throw unauthorized('invalid_credentials', 'unknown API key');
    const key = await findApiKey(db, token);
    if (!key) {
      if (hash) opts.caches?.unknownKeys.set(hash, true);
      throw unauthorized('invalid_credentials', 'unknown API key');
    }
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
        scopes: key.admin ? ADMIN_KEY_SCOPES : key.console ? CONSOLE_KEY_SCOPES : API_KEY_SCOPES,
        environment: key.environment,
        keyId: key.id,
      },
      deprecatedBrowserKey: fromBrowser,
    };
  }

  if (opts.allowSessionTokens === false) {
    throw unauthorized(
      'api_key_required',
      'this endpoint takes a long-lived API key; a session token cannot mint tokens',
    );
  }
  // a TokenError is a 401 token_expired / invalid_token already
  const claims = verifySessionToken(secret, token);
  if (wantedEnv && wantedEnv !== claims.env) {
    throw unauthorized('environment_mismatch', `this token was minted for ${claims.env}, not ${wantedEnv}`);
  }
  if (claims.org) {
    // origin binding protects browsers; non-browser clients could send any Origin anyway
    const bound = normaliseOrigin(claims.org) ?? claims.org;
    // "null" is an opaque origin: a browser (only browsers send it) that sent no usable Origin
    const sent =
      req.origin === undefined || isNullOrigin(req.origin) ? undefined : (normaliseOrigin(req.origin) ?? req.origin);
    if (sent !== undefined && sent !== bound) {
      throw unauthorized('origin_mismatch', `this token is bound to ${bound}`);
    }
    if (sent === undefined && fromBrowser) {
      throw unauthorized('origin_mismatch', `this token is bound to ${bound}; the browser sent no Origin`);
    }
  }
  // a token dies with the key that minted it (tokens minted locally by the CLI name no key);
  // last, as the only check of a token that may read the database
  if (claims.kid !== undefined && (await keyRevoked(db, claims.kid, opts.caches))) {
    throw unauthorized(
      'revoked_key',
      'the API key that minted this token has been revoked: mint a new token with a valid key',
    );
  }
  return {
    principal: {
      kind: 'session',
      customerId: claims.sub,
      customerName: claims.cus,
      // minting refuses admin scopes; dropping them here too keeps any token (a CLI-minted one,
      // a future bug) from ever carrying one
      scopes: claims.scp.filter(isTokenScope),
      environment: claims.env,
      keyId: claims.kid,
      tokenId: claims.jti,
    },
    deprecatedBrowserKey: false,
  };
}
