/** Sign-in (a console key exchanged for the session cookie), sign-out, and who is signed in. */
import { Router } from 'express';
import { z } from 'zod';
import {
  closeConsoleSession,
  ConsoleCredentialsError,
  csrfToken,
  openConsoleSession,
  type ConsoleSession,
} from '../../auth/console-session.js';
import type { ApiContext } from '../../http/context.js';
import { tooManyRequests } from '../../http/rate-limit.js';
import { parseOr400 } from '../../http/validate.js';
import type * as Api from '../console-api.js';
import { clearSessionCookie, sessionOf, setSessionCookie } from '../console-security.js';

function sessionInfo(ctx: ApiContext, s: ConsoleSession): Api.SessionInfo {
  return {
    csrf: csrfToken(ctx.secret, s.id),
    expiresAt: s.expiresAt.toISOString(),
    customer: s.customerName,
    admin: s.admin,
    environment: s.environment,
  };
}

/** the API key to sign in with (a console key or an admin key) */
const signInBody = z
  .object({ key: z.string({ error: 'key must be an API key (a string)' }).min(1, 'key must not be empty') })
  .strict();

/** POST /console/api/session: mounted before the session guard (it makes the session). */
export function signInRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.post('/console/api/session', async (req, res) => {
    const address = req.ip ?? 'unknown';
    const wait = ctx.authFailures.wait(address);
    if (wait > 0)
      throw tooManyRequests(
        'too_many_auth_failures',
        `too many failed sign-ins from this address; retry in ${wait} s`,
        wait,
      );
    const { key } = parseOr400(signInBody, req.body, 'body');
    let opened;
    try {
      opened = await openConsoleSession(ctx.db.db, ctx.secret, key, ctx.cfg.consoleSessionTtlSeconds);
    } catch (err) {
      if (err instanceof ConsoleCredentialsError) ctx.authFailures.spend(address);
      throw err;
    }
    setSessionCookie(req, res, opened.cookie, (opened.session.expiresAt.getTime() - Date.now()) / 1000);
    res.setHeader('Cache-Control', 'no-store');
    res.json(sessionInfo(ctx, opened.session));
  });
  return r;
}

/** Sign-out and GET /console/api/me: behind the session guard. */
export function sessionRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.delete('/console/api/session', async (req, res) => {
    await closeConsoleSession(ctx.db.db, sessionOf(req).id);
    clearSessionCookie(req, res);
    res.json({ signedOut: true });
  });

  r.get('/console/api/me', (req, res) => {
    res.json(sessionInfo(ctx, sessionOf(req)));
  });
  return r;
}
