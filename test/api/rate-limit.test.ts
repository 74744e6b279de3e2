import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { RateLimiter } from '../../src/http/rate-limit.js';
import { HttpError } from '../../src/http/http-error.js';
import { mintSessionToken } from '../../src/auth/session-token.js';
import { isErrorBody, useTestApi } from '../helpers/api.js';

describe('rate limiting', () => {
  it('allows a burst, then refills at the per-minute rate', () => {
    const rl = new RateLimiter(60, 3);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) rl.take('a', t0);
    let err: HttpError | null = null;
    try {
      rl.take('a', t0);
    } catch (e) {
      err = e as HttpError;
    }
    expect(err?.status).toBe(429);
    expect(err?.headers?.['Retry-After']).toBe('1');
    rl.take('b', t0); // customers are limited apart
    rl.take('a', t0 + 1_000); // one token back after a second at 60/min
    expect(() => rl.take('a', t0 + 1_000)).toThrow(HttpError);
    expect(() => new RateLimiter(0, 1).take('a')).not.toThrow();
  });

  describe('over HTTP', () => {
    const api = useTestApi({ rateLimitPerMinute: 1, rateLimitBurst: 3 });

    it('answers 429 with Retry-After and the error body, per credential', async () => {
      const get = (key: string) =>
        api.call('GET', '/available-parts?category=GPU', { token: key, headers: { origin: 'https://shop.example' } });
      for (let i = 0; i < 3; i++) expect((await get(api.key)).status).toBe(200);
      const limited = await get(api.key);
      expect(limited.status).toBe(429);
      expect(isErrorBody(limited.json)).toBe(true);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      const other = (await createApiKey(api.t.db.db, 'other-customer')).key;
      expect((await get(other)).status).toBe(200);
      // /health is not limited
      expect((await api.call('GET', '/health')).status).toBe(200);
    });
  });

  describe('per session token, under a per-customer ceiling', () => {
    const api = useTestApi({
      rateLimitPerMinute: 1,
      rateLimitBurst: 3,
      customerRateLimitPerMinute: 1,
      customerRateLimitBurst: 8,
    });
    let customerId: string;
    beforeAll(async () => {
      customerId = (
        await api.t.db.db.selectFrom('customers').select('id').where('name', '=', 'acme').executeTakeFirstOrThrow()
      ).id;
    });

    // one visitor's token each (minted locally, so minting costs none of the customer's budget)
    const visitor = () =>
      mintSessionToken(api.server.ctx.secret, {
        customerId,
        customerName: 'acme',
        scopes: ['data:read'],
        environment: 'prod',
        ttlSeconds: 300,
      }).session_token;
    const get = (token: string) => api.call('GET', '/available-parts?category=GPU&limit=1', { token });

    it("one visitor's burst does not use up the others'; the customer's ceiling still holds", async () => {
      const [a, b, c, d] = [visitor(), visitor(), visitor(), visitor()];
      for (let i = 0; i < 3; i++) expect((await get(a)).status).toBe(200);
      const limited = await get(a);
      expect(limited.status).toBe(429);
      expect(limited.json.message).toMatch(/token/);
      // another visitor of the same shop is not limited by a's requests
      expect((await get(b)).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await get(c)).status).toBe(200);
      // 3 + 1 + 3 taken: the 8th of the customer's burst passes, the 9th is over the ceiling
      expect((await get(d)).status).toBe(200);
      const ceiling = await get(d);
      expect(ceiling.status).toBe(429);
      expect(isErrorBody(ceiling.json)).toBe(true);
      expect(ceiling.json.message).toMatch(/customer/);
      expect(Number(ceiling.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    });
  });
});
