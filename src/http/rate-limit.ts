/**
 * Token buckets per key (a credential, a customer, a client address): `burst` requests at
 * once, refilled at `perMinute`. In memory, so
 * each API process limits on its own (N processes allow N times the rate); over the limit: 429
 * with Retry-After.
 */
import { HttpError } from './http-error.js';

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private lastSweep = Date.now();

  constructor(
    private readonly perMinute: number,
    private readonly burst: number,
  ) {
    this.perMs = perMinute / 60_000;
  }

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  get perMinuteLimit(): number {
    return this.perMinute;
  }

  /** Takes one token for `key` or throws 429 saying when to come back. */
  take(key: string, now = Date.now()): void {
    const wait = this.wait(key, now);
    if (wait > 0) {
      throw tooManyRequests(
        'rate_limited',
        `too many requests: at most ${this.perMinute} a minute; retry in ${wait} s`,
        wait,
      );
    }
    this.spend(key, now);
  }

  /** Seconds until `key` has a token again; 0 when it has one now. Takes nothing. */
  wait(key: string, now = Date.now()): number {
    if (!this.enabled) return 0;
    const tokens = this.refill(key, now).tokens;
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000));
  }

  /**
   * Takes one token even when there is none: the debt (at most one burst) is paid back before
   * the key may go again, so concurrent requests that all passed wait() are still counted.
   */
  spend(key: string, now = Date.now()): void {
    if (!this.enabled) return;
    const b = this.refill(key, now);
    b.tokens = Math.max(-this.burst, b.tokens - 1);
  }

  private refill(key: string, now: number): Bucket {
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + (now - b.at) * this.perMs);
    b.at = now;
    this.buckets.set(key, b);
    this.sweep(now);
    return b;
  }

  /** Forgets buckets that are full again, so idle customers cost no memory. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perMs >= this.burst) this.buckets.delete(k);
    }
  }
}

/**
 * The request limits of an authenticated request: its credential's bucket (one session token
 * is one browser visitor, so a busy shop's visitors do not share one bucket) and, above it,
 * the customer's ceiling over all its credentials. Both must have a token; then both pay.
 */
export function takeRequestBudget(
  perCredential: RateLimiter,
  perCustomer: RateLimiter,
  principal: { kind: 'api_key' | 'session'; customerId: string; keyId?: string; tokenId?: string },
  now = Date.now(),
): void {
  const credential =
    principal.kind === 'session' && principal.tokenId
      ? `token:${principal.tokenId}`
      : `key:${principal.keyId ?? principal.customerId}`;
  const own = perCredential.wait(credential, now);
  if (own > 0) {
    const what = principal.kind === 'session' ? 'session token' : 'API key';
    throw tooManyRequests(
      'rate_limited',
      `too many requests with this ${what}: at most ${perCredential.perMinuteLimit} a minute; retry in ${own} s`,
      own,
    );
  }
  const shared = perCustomer.wait(principal.customerId, now);
  if (shared > 0) {
    throw tooManyRequests(
      'rate_limited',
      `too many requests for this customer across all its tokens and keys: at most ${perCustomer.perMinuteLimit} a minute; retry in ${shared} s`,
      shared,
    );
  }
  perCredential.spend(credential, now);
  perCustomer.spend(principal.customerId, now);
}

/** 429 with Retry-After (seconds). */
export function tooManyRequests(code: string, message: string, retryAfterSeconds: number): HttpError {
  return new HttpError(429, code, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
}
