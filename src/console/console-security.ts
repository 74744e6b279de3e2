/**
 * What guards every /console response and request: the security headers (a CSP without inline
 * script or style, no framing, no sniffing, no referrer), the session cookie (read, set,
 * cleared) and the session and CSRF checks of the console's JSON endpoints.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  CONSOLE_COOKIE,
  ConsoleSessionError,
  csrfMatches,
  readConsoleSession,
  type ConsoleSession,
} from '../auth/console-session.js';
import type { ApiContext } from '../http/context.js';
import { publicBase } from '../http/context.js';
import { forbidden } from '../http/http-error.js';

/** The Content-Security-Policy of every console response; `store` is the artifact store's origin when files come from elsewhere (S3). */
export function consoleCsp(store: string | null): string {
  const extra = store ? ` ${store}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${extra}`,
    `media-src 'self'${extra}`,
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** The store's origin when it is not this server (an S3 bucket), found once. */
async function storeOrigin(ctx: ApiContext, req: Request): Promise<string | null> {
  if (ctx.store.kind === 'fs') return null;
  try {
    const origin = new URL(await ctx.store.url('console/csp-probe', publicBase(ctx, req))).origin;
    return origin === new URL(publicBase(ctx, req)).origin ? null : origin;
  } catch {
    return null;
  }
}

/** Sets the security headers on every /console response. */
export function securityHeaders(ctx: ApiContext): RequestHandler {
  let origin: Promise<string | null> | null = null;
  return async (req: Request, res: Response, next: NextFunction) => {
    origin ??= storeOrigin(ctx, req);
    res.setHeader('Content-Security-Policy', consoleCsp(await origin));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    next();
  };
}

/** The session cookie's value, if the request has one. */
export function sessionCookie(req: Request): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === CONSOLE_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function cookieAttributes(req: Request, maxAge: number): string {
  // req.secure follows X-Forwarded-Proto from trusted proxies (TRUST_PROXY)
  return `HttpOnly; SameSite=Strict; Path=/console; Max-Age=${maxAge}${req.secure ? '; Secure' : ''}`;
}

export function setSessionCookie(req: Request, res: Response, value: string, maxAge: number): void {
  res.setHeader('Set-Cookie', `${CONSOLE_COOKIE}=${value}; ${cookieAttributes(req, Math.max(0, Math.floor(maxAge)))}`);
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.setHeader('Set-Cookie', `${CONSOLE_COOKIE}=; ${cookieAttributes(req, 0)}`);
}

const sessions = new WeakMap<Request, ConsoleSession>();

/** The session requireSession found for this request. */
export function sessionOf(req: Request): ConsoleSession {
  const s = sessions.get(req);
  if (!s) throw new ConsoleSessionError();
  return s;
}

/**
 * A live session, and for state-changing methods the session's CSRF token in X-CSRF-Token:
 * 401 `console_session_required`, 403 `csrf_token_invalid`. A forged cookie counts toward the
 * failed-auth limit like a bad key (an expired one does not: browsers keep those routinely).
 */
export function requireSession(ctx: ApiContext): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    let session: ConsoleSession;
    try {
      session = await readConsoleSession(ctx.db.db, ctx.secret, sessionCookie(req));
    } catch (err) {
      if (err instanceof ConsoleSessionError && err.forged) ctx.authFailures.spend(req.ip ?? 'unknown');
      throw err;
    }
    if (
      req.method !== 'GET' &&
      req.method !== 'HEAD' &&
      !csrfMatches(ctx.secret, session.id, req.get('x-csrf-token'))
    ) {
      throw forbidden(
        'csrf_token_invalid',
        "send the session's CSRF token (from sign-in or GET /console/api/me) in the X-CSRF-Token header",
      );
    }
    sessions.set(req, session);
    next();
  };
}

/** 403 `admin_required` unless the session's key is an admin key. */
export function requireAdmin(req: Request): void {
  if (!sessionOf(req).admin)
    throw forbidden(
      'admin_required',
      'this page is for operators: sign in with an admin API key (render-farm keys create --admin)',
    );
}
