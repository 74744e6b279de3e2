/**
 * One webhook POST: signed body, bounded time, no redirects (a redirect could point anywhere),
 * the connection pinned to addresses that passed the SSRF check. Never throws: the outcome
 * says whether to retry.
 */
import http from 'node:http';
import https from 'node:https';
import { VERSION } from '../version.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signWebhook } from './signature.js';
import { checkWebhookTarget, guardedLookup, WebhookTargetError, type TargetPolicy } from './target-policy.js';

export interface WebhookPost {
  url: string;
  secret: string;
  event: string;
  deliveryId: string;
  body: string;
  timeoutMs: number;
  policy: TargetPolicy;
}

export type PostOutcome =
  | { ok: true; status: number }
  | { ok: false; status?: number; error: string /** retrying cannot help (refused target) */; permanent: boolean };

export async function postWebhook(p: WebhookPost): Promise<PostOutcome> {
  let url: URL;
  try {
    ({ url } = await checkWebhookTarget(p.url, p.policy));
  } catch (err) {
    const permanent = err instanceof WebhookTargetError && !/cannot resolve/.test(err.message);
    return { ok: false, error: (err as Error).message, permanent };
  }
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise<PostOutcome>((settle) => {
    // one bound on the whole exchange, so a receiver that trickles bytes cannot hold a slot
    const timer = setTimeout(
      () => req.destroy(new Error(`no complete answer within ${Math.round(p.timeoutMs / 1000)} s`)),
      p.timeoutMs,
    );
    const resolve = (o: PostOutcome) => {
      clearTimeout(timer);
      settle(o);
    };
    const req = lib.request(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(p.policy),
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(p.body),
          'user-agent': `render-farm-webhooks/${VERSION}`,
          [SIGNATURE_HEADER]: signWebhook(p.secret, p.body),
          [EVENT_HEADER]: p.event,
          [DELIVERY_HEADER]: p.deliveryId,
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // the body is not used; read a little so the connection can close cleanly
        let read = 0;
        res.on('data', (c: Buffer) => {
          read += c.length;
          if (read > 64 * 1024) res.destroy();
        });
        res.on('error', () => {});
        res.on('close', () => {
          if (status >= 200 && status < 300) resolve({ ok: true, status });
          else
            resolve({
              ok: false,
              status,
              error: `the receiver answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
              permanent: false,
            });
        });
        res.resume();
      },
    );
    req.on('error', (err) => {
      resolve({ ok: false, error: err.message, permanent: err instanceof WebhookTargetError });
    });
    req.end(p.body);
  });
}
