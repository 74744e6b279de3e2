/**
 * Webhook signatures: `Render-Farm-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` where the
 * HMAC key is the webhook's secret and the message is `<t>.<raw request body>`. Receivers
 * recompute it over the bytes they received and reject timestamps older than a few minutes
 * (replays). Each attempt is signed afresh, so retries carry a current timestamp.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Render-Farm-Signature';
export const EVENT_HEADER = 'Render-Farm-Event';
export const DELIVERY_HEADER = 'Render-Farm-Delivery';
/** receivers should refuse signatures older than this */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new webhook signing secret (shown to the customer once). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signatureHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The header value for `body` signed at `timestamp` (unix seconds). */
export function signWebhook(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${signatureHex(secret, timestamp, body)}`;
}

/**
 * What a receiver does: true when `header` holds a v1 signature of `body` made with `secret`
 * within `toleranceSeconds` of `now` (unix seconds).
 */
export function verifyWebhook(
  secret: string,
  body: string,
  header: string | undefined | null,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  now = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(now - t) > toleranceSeconds || !/^[0-9a-f]{64}$/.test(parts.v1 ?? ''))
    return false;
  const expected = Buffer.from(signatureHex(secret, t, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(parts.v1!, 'hex'));
}
