/**
 * Failed authentication is limited per client address (429 with Retry-After), and unknown API
 * keys are answered from a short negative cache instead of a database read each.
 */
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/auth/api-keys.js';
import { mintSessionToken } from '../../src/auth/session-token.js';
import { isErrorBody, startTestApi, type TestApi } from '../helpers/api.js';

const wrongKey = (i: number) => `rfk_prod_${String(i).padStart(43, 'x')}`;

describe('failed authentication', () => {
  let api: TestApi;
  // the test client is on loopback, a trusted proxy by default: X-Forwarded-For sets the address
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const get = (credential: string, address: string) =>
    api.call('GET', '/available-parts?category=GPU&limit=1', { token: credential, headers: from(address) });

  beforeAll(async () => {
    // refills of 1 a minute: no token comes back while the test runs, however slow the machine
    api = await startTestApi({ authFailureLimitPerMinute: 1, authFailureBurst: 5 });
  });
  afterAll(async () => api?.close());

  it('answers 429 with Retry-After once an address has used up its failures', async () => {
    for (let i = 0; i < 5; i++) expect((await get(wrongKey(i), '198.51.100.1')).status).toBe(401);
    const limited = await get(wrongKey(99), '198.51.100.1');
    expect(limited.status).toBe(429);
    expect(isErrorBody(limited.json)).toBe(true);
    expect(limited.json.error).toBe('too_many_auth_failures');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // garbage tokens count the same
    for (let i = 0; i < 5; i++) expect((await get('not-a-token', '198.51.100.2')).status).toBe(401);
    expect((await get('not-a-token', '198.51.100.2')).status).toBe(429);
    // the address is refused before any lookup, valid credentials included
    expect((await get(api.key, '198.51.100.1')).status).toBe(429);
    // other addresses are unaffected
    expect((await get(api.key, '198.51.100.3')).status).toBe(200);
    expect((await get(wrongKey(1), '198.51.100.4')).status).toBe(401);
  });

  it('does not count expired tokens (clients refresh after one)', async () => {
    const claims = jwt.decode(
      (await api.call('POST', '/auth/render-session', { token: api.key, body: {} })).json.session_token,
    ) as { sub: string };
    const expired = mintSessionToken(api.server.ctx.secret, {
      customerId: claims.sub,
      customerName: 'acme',
      scopes: ['data:read'],
      environment: 'prod',
      ttlSeconds: 30,
      now: new Date(Date.now() - 120_000),
    }).session_token;
    for (let i = 0; i < 10; i++) expect((await get(expired, '198.51.100.5')).json.error).toBe('token_expired');
    expect((await get(api.key, '198.51.100.5')).status).toBe(200);
  });

  it('remembers unknown API keys for a while instead of reading the database each time', async () => {
    const key = wrongKey(12345);
    expect((await get(key, '198.51.100.6')).status).toBe(401);
    // the key appears in the database: within the negative cache's lifetime it is still unknown,
    // which shows that the second request did not look it up
    const customer = await api.t.db.db
      .selectFrom('customers')
      .select('id')
      .where('name', '=', 'acme')
      .executeTakeFirstOrThrow();
    await api.t.db.db
      .insertInto('api_keys')
      .values({ customer_id: customer.id, environment: 'prod', prefix: key.slice(0, 16), key_hash: hashApiKey(key) })
      .execute();
    const again = await get(key, '198.51.100.7');
    expect(again.status).toBe(401);
    expect(again.json.error).toBe('invalid_credentials');
  });
});
