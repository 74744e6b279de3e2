/**
 * Web console sessions (docs/console.md): an API key with the console scope (or an admin key) is
 * exchanged once for a cookie; the key itself never reaches the page. The cookie is
 * `<session id>.<expiry, unix s>.<HMAC-SHA256 of both>` under the signing secret, so a forged
 * or altered cookie is refused before any read; the `console_sessions` row (sql/0015) makes
 * sign-out and key revocation take effect on every serve process. The CSRF token is an HMAC
 * of the session id: the page gets it from JSON (never from a cookie), so another site can
 * neither read nor guess it, and it dies with the session.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { UserError } from '../errors.js';
import { findApiKey, touchApiKey } from './api-keys.js';
import type { Environment } from './scopes.js';

/** The cookie's name (Path=/console). */
export const CONSOLE_COOKIE = 'rf_console';

/** Who is signed in to the console. */
export interface ConsoleSession {
  id: string;
  keyId: string;
  customerId: string;
  customerName: string;
  environment: Environment;
  /** an admin key: every customer's jobs, keys and webhooks */
  admin: boolean;
  expiresAt: Date;
}

/** 401 `console_session_required`: no cookie, a bad one, expired, signed out or its key revoked. */
export class ConsoleSessionError extends UserError {
  constructor(
    message = 'sign in to the console first (POST /console/api/session with an API key that has the console scope)',
    /** the cookie was not one this server signed (counted as a failed authentication) */
    public readonly forged = false,
  ) {
    super('console_session_required', message, { status: 401 });
    this.name = 'ConsoleSessionError';
  }
}

/**
 * The keys that sign in, as the sign-in page says it: on a fresh `up` a person has only the demo
 * key it printed, so it comes first; operators make keys with the CLI.
 */
const WHICH_KEYS =
  'the demo API key "render-farm up" printed (kept in its data dir: .render-farm/demo-api-key by default), ' +
  'or a key from "render-farm keys create --customer NAME --console" (admin keys may too)';

/** 403 `console_scope_required`: a valid key that may not use the console. */
export class ConsoleScopeError extends UserError {
  constructor() {
    super('console_scope_required', `this API key cannot sign in to the console: sign in with ${WHICH_KEYS}`, {
      status: 403,
    });
    this.name = 'ConsoleScopeError';
  }
}

/** 401 `invalid_credentials`: an unknown or revoked key (counted by the failed-auth limit). */
export class ConsoleCredentialsError extends UserError {
  constructor(message: string) {
    super('invalid_credentials', message, { status: 401 });
    this.name = 'ConsoleCredentialsError';
  }
}

function mac(secret: string, purpose: string, value: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${value}`).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The cookie value of a session. */
export function sessionCookieValue(secret: string, id: string, expiresAt: Date): string {
  const body = `${id}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${body}.${mac(secret, 'console-session', body)}`;
}

/** The CSRF token bound to a session. */
export function csrfToken(secret: string, sessionId: string): string {
  return mac(secret, 'console-csrf', sessionId);
}

/** True when `sent` is the CSRF token of this session (constant time). */
export function csrfMatches(secret: string, sessionId: string, sent: string | undefined): boolean {
  return typeof sent === 'string' && sameText(sent, csrfToken(secret, sessionId));
}

/**
 * Signs in with an API key: a new session row and its cookie. Throws ConsoleCredentialsError
 * (unknown, malformed or revoked key) or ConsoleScopeError (no console scope).
 */
export async function openConsoleSession(
  db: Kysely<Database>,
  secret: string,
  key: string,
  ttlSeconds: number,
): Promise<{ session: ConsoleSession; cookie: string }> {
  const rec = typeof key === 'string' ? await findApiKey(db, key) : null;
  if (!rec) throw new ConsoleCredentialsError(`unknown API key: sign in with ${WHICH_KEYS}`);
  if (rec.revokedAt) throw new ConsoleCredentialsError('this API key has been revoked');
  if (!rec.console && !rec.admin) throw new ConsoleScopeError();
  await touchApiKey(db, rec);
  // expired rows are of no use to anyone: a sign-in clears them (there are few: people sign in)
  await db.deleteFrom('console_sessions').where('expires_at', '<', sql<Date>`now() - interval '1 day'`).execute();
  const row = await db
    .insertInto('console_sessions')
    .values({
      key_id: rec.id,
      expires_at: sql<Date>`date_trunc('second', now()) + make_interval(secs => ${ttlSeconds})`,
    })
    .returning(['id', 'expires_at'])
    .executeTakeFirstOrThrow();
  const expiresAt = new Date(row.expires_at);
  const session: ConsoleSession = {
    id: row.id,
    keyId: rec.id,
    customerId: rec.customerId,
    customerName: rec.customerName,
    environment: rec.environment,
    admin: rec.admin,
    expiresAt,
  };
  return { session, cookie: sessionCookieValue(secret, row.id, expiresAt) };
}

/** The live session a cookie names; throws ConsoleSessionError otherwise. */
export async function readConsoleSession(
  db: Kysely<Database>,
  secret: string,
  cookie: string | undefined,
): Promise<ConsoleSession> {
  const m = /^([0-9a-f-]{36})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/i.exec(cookie ?? '');
  if (!m) throw new ConsoleSessionError(undefined, !!cookie);
  const [, id, exp, sig] = m;
  if (!sameText(sig!, mac(secret, 'console-session', `${id}.${exp}`))) throw new ConsoleSessionError(undefined, true);
  if (Number(exp) * 1000 <= Date.now()) throw new ConsoleSessionError('the console session has expired: sign in again');
  const row = await db
    .selectFrom('console_sessions as s')
    .innerJoin('api_keys as k', 'k.id', 's.key_id')
    .innerJoin('customers as c', 'c.id', 'k.customer_id')
    .select([
      's.id',
      's.key_id',
      's.expires_at',
      's.revoked_at',
      'k.revoked_at as key_revoked_at',
      'k.admin',
      'k.console',
      'k.environment',
      'c.id as customer_id',
      'c.name as customer_name',
    ])
    .select(sql<boolean>`s.expires_at <= now()`.as('expired'))
    .where('s.id', '=', id!)
    .executeTakeFirst();
  if (!row || row.revoked_at) throw new ConsoleSessionError('signed out: sign in again');
  if (row.expired) throw new ConsoleSessionError('the console session has expired: sign in again');
  if (row.key_revoked_at)
    throw new ConsoleSessionError('the API key of this session has been revoked: sign in with a valid key');
  if (!row.console && !row.admin)
    throw new ConsoleSessionError('the API key of this session may no longer use the console');
  return {
    id: row.id,
    keyId: row.key_id,
    customerId: row.customer_id,
    customerName: row.customer_name,
    environment: row.environment,
    admin: row.admin,
    expiresAt: new Date(row.expires_at),
  };
}

/** Sign-out: the session's cookie stops working on every serve process. */
export async function closeConsoleSession(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}
