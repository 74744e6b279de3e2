/**
 * Per-customer token buckets: `burst` requests at once, refilled at `perMinute`. In memory, so
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

  /** Takes one token for `key` or throws 429 saying when to come back. */
  take(key: string, now = Date.now()): void {
    if (this.perMinute === 0) return;
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + (now - b.at) * this.perMs);
    b.at = now;
    this.buckets.set(key, b);
    this.sweep(now);
    if (b.tokens < 1) {
      const wait = Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000));
      throw new HttpError(429, 'rate_limited', `too many requests: at most ${this.perMinute} a minute; retry in ${wait} s`, undefined, {
        'Retry-After': String(wait),
      });
    }
    b.tokens -= 1;
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
