/**
 * Session tokens (docs/design-decisions.md, "Credentials"): HS256 JWTs, the algorithm pinned on verify, carrying the
 * customer, scopes, environment, optional origin binding, expiry and an id.
 */
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { UserError } from '../errors.js';
import type { Environment, Scope } from './scopes.js';

const ISSUER = 'render-farm';
const AUDIENCE = 'render-api';
export const MIN_TTL = 30;
export const MAX_TTL = 300;
export const DEFAULT_TTL = 120;

export interface TokenClaims {
  /** customer id */
  sub: string;
  /** customer name, for logs and `token --json` */
  cus: string;
  scp: Scope[];
  env: Environment;
  /** bound browser origin */
  org?: string;
  /** id of the API key that minted it, when minted through the API */
  kid?: string;
  jti: string;
  iat: number;
  exp: number;
}

export interface MintInput {
  customerId: string;
  customerName: string;
  scopes: readonly Scope[];
  environment: Environment;
  ttlSeconds: number;
  origin?: string;
  keyId?: string;
  now?: Date;
}

/** The token object POST /auth/render-session answers (docs/api.md, "Endpoints"). */
export interface SessionToken {
  session_token: string;
  token_type: 'Bearer';
  expires_in: number;
  expires_at: string;
  scopes: Scope[];
  environment: Environment;
  origin?: string;
}

export function mintSessionToken(secret: string, input: MintInput): SessionToken {
  const iat = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const exp = iat + input.ttlSeconds;
  const claims: Omit<TokenClaims, 'iat' | 'exp'> & { iat: number; exp: number } = {
    sub: input.customerId,
    cus: input.customerName,
    scp: [...input.scopes],
    env: input.environment,
    ...(input.origin ? { org: input.origin } : {}),
    ...(input.keyId ? { kid: input.keyId } : {}),
    jti: randomUUID(),
    iat,
    exp,
  };
  const token = jwt.sign(claims, secret, { algorithm: 'HS256', issuer: ISSUER, audience: AUDIENCE });
  return {
    session_token: token,
    token_type: 'Bearer',
    expires_in: input.ttlSeconds,
    expires_at: new Date(exp * 1000).toISOString(),
    scopes: [...input.scopes],
    environment: input.environment,
    ...(input.origin ? { origin: input.origin } : {}),
  };
}

/** A session token that cannot be used: 401 `token_expired` or `invalid_token`. */
export class TokenError extends UserError {
  constructor(
    public readonly reason: 'expired' | 'invalid',
    message: string,
  ) {
    super(reason === 'expired' ? 'token_expired' : 'invalid_token', message, { status: 401 });
    this.name = 'TokenError';
  }
}

/** The last secret's key object: a serve verifies with one secret for its whole life. */
let verifyKey: { secret: string; key: KeyObject } | null = null;

/**
 * Given a string, jsonwebtoken first tries to parse it as a PEM public key and catches the
 * throw, then makes the secret key: about a tenth of the server's profile under cache-hit
 * submits. The key is made once.
 */
function keyOf(secret: string): KeyObject {
  if (verifyKey?.secret !== secret) verifyKey = { secret, key: createSecretKey(Buffer.from(secret)) };
  return verifyKey.key;
}

/** Verifies signature (HS256 only), issuer, audience and expiry; returns the claims. */
export function verifySessionToken(secret: string, token: string, now?: Date): TokenClaims {
  try {
    const claims = jwt.verify(token, keyOf(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      ...(now ? { clockTimestamp: Math.floor(now.getTime() / 1000) } : {}),
    }) as TokenClaims;
    if (
      typeof claims.sub !== 'string' ||
      !Array.isArray(claims.scp) ||
      (claims.env !== 'prod' && claims.env !== 'staging')
    ) {
      throw new TokenError('invalid', 'session token is missing required claims');
    }
    return claims;
  } catch (err) {
    if (err instanceof TokenError) throw err;
    if (err instanceof jwt.TokenExpiredError)
      throw new TokenError('expired', 'session token has expired: mint a new one');
    throw new TokenError('invalid', 'invalid session token');
  }
}
