import jwt from 'jsonwebtoken';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../src/auth/api-keys.js';
import { mintSessionToken } from '../../src/auth/session-token.js';
import { isErrorBody, useTestApi } from '../helpers/api.js';

const ALL = ['render:submit', 'render:status', 'data:read'];

describe('auth', () => {
  const api = useTestApi();
  let token: string;
  const mint = async (body: Record<string, unknown> = {}, key?: string, query = '') => {
    const r = await api.call('POST', `/auth/render-session${query}`, { token: key ?? api.key, body });
    return r;
  };
  const parts = (tok?: string, headers?: Record<string, string>, query = '') =>
    api.call('GET', `/available-parts?category=GPU${query}`, { token: tok, headers });

  beforeAll(async () => {
    token = (await mint({ scopes: ALL })).json.session_token;
  });

  describe('POST /auth/render-session', () => {
    it('mints with the defaults docs/api.md gives', async () => {
      const r = await mint();
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ token_type: 'Bearer', expires_in: 120, environment: 'prod' });
      expect(r.json.scopes.sort()).toEqual(['render:status', 'render:submit']);
      const exp = Date.parse(r.json.expires_at);
      expect(Math.abs(exp - Date.now() - 120_000)).toBeLessThan(5_000);
      const decoded = jwt.decode(r.json.session_token, { complete: true })!;
      expect(decoded.header.alg).toBe('HS256');
      expect(decoded.payload).toMatchObject({ env: 'prod', cus: 'acme', scp: ['render:submit', 'render:status'] });
      expect((decoded.payload as { jti: string }).jti).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers.get('cache-control')).toBe('no-store');
    });

    it('accepts ttlSeconds and enforces 30..300', async () => {
      expect((await mint({ ttlSeconds: 60 })).json.expires_in).toBe(60);
      for (const [ttl, want] of [
        [29, 400],
        [30, 200],
        [300, 200],
        [301, 400],
        ['abc', 400],
        [45.5, 400],
      ] as const) {
        const r = await mint({ ttl_seconds: ttl });
        expect(r.status, `ttl ${ttl}`).toBe(want);
        if (want === 400) expect(isErrorBody(r.json)).toBe(true);
      }
    });

    it('rejects unknown scopes, unknown fields and non-http origins', async () => {
      const s = await mint({ scopes: ['render:submit', 'admin:all'] });
      expect(s.status).toBe(400);
      expect(s.json.message).toContain('admin:all');
      const f = await mint({ ttl: 60 });
      expect(f.status).toBe(400);
      expect(f.json.details).toContainEqual({ field: 'ttl', message: 'unknown field' });
      expect((await mint({ origin: 'ftp://x.example' })).status).toBe(400);
      expect((await mint({ origin: 'https://shop.example/path' })).status).toBe(400);
      expect((await mint({ origin: 'https://shop.example' })).json.origin).toBe('https://shop.example');
    });

    it('needs an API key: none -> 401, a session token -> 401', async () => {
      const none = await api.call('POST', '/auth/render-session', { body: {} });
      expect(none.status).toBe(401);
      expect(isErrorBody(none.json)).toBe(true);
      const viaToken = await mint({}, token);
      expect(viaToken.status).toBe(401);
      expect(viaToken.json.error).toBe('api_key_required');
    });

    it('malformed JSON -> 400, oversized body -> 413', async () => {
      const r = await api.call('POST', '/auth/render-session', { token: api.key, raw: '{"ttl_seconds":' });
      expect(r.status).toBe(400);
      expect(r.json.error).toBe('invalid_json');
      const big = await api.call('POST', '/auth/render-session', {
        token: api.key,
        raw: JSON.stringify({ origin: 'x'.repeat(200_000) }),
      });
      expect(big.status).toBe(413);
      expect(isErrorBody(big.json)).toBe(true);
    });

    it('a staging key mints staging tokens; asking for prod with it is 401', async () => {
      const { key } = await createApiKey(api.t.db.db, 'acme', 'staging');
      const r = await mint({}, key);
      expect(r.json.environment).toBe('staging');
      expect((await mint({}, key, '?environment=prod')).status).toBe(401);
    });
  });

  describe('protected endpoints', () => {
    it('accept a valid session token and environment=prod', async () => {
      expect((await parts(token)).status).toBe(200);
      expect((await parts(token, undefined, '&environment=prod')).status).toBe(200);
    });

    it('refuse missing, garbage, tampered, wrong-signature and alg-none tokens with 401', async () => {
      const [h, p] = token.split('.');
      const forged = jwt.sign(jwt.decode(token) as object, 'another-secret-of-sufficient-length-123', {
        algorithm: 'HS256',
      });
      const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
      const tampered = `${h}.${Buffer.from(JSON.stringify({ ...(jwt.decode(token) as object), scp: ALL, sub: 'x' })).toString('base64url')}.${token.split('.')[2]}`;
      for (const [name, tok] of [
        ['missing', undefined],
        ['garbage', 'not-a-token'],
        ['wrong signature', forged],
        ['alg none', none],
        ['tampered', tampered],
      ] as const) {
        const r = await parts(tok);
        expect(r.status, name).toBe(401);
        expect(isErrorBody(r.json), name).toBe(true);
      }
      const basic = await api.call('GET', '/available-parts?category=GPU', { headers: { authorization: 'Basic abc' } });
      expect(basic.status).toBe(401);
    });

    it('refuse an expired token with 401 token_expired', async () => {
      const claims = jwt.decode(token) as { sub: string };
      const old = mintSessionToken(api.server.ctx.secret, {
        customerId: claims.sub,
        customerName: 'acme',
        scopes: ALL as never,
        environment: 'prod',
        ttlSeconds: 30,
        now: new Date(Date.now() - 120_000),
      });
      const r = await parts(old.session_token);
      expect(r.status).toBe(401);
      expect(r.json.error).toBe('token_expired');
    });

    it('refuse a prod token with environment=staging (401) and a bad environment value (400)', async () => {
      expect((await parts(token, undefined, '&environment=staging')).status).toBe(401);
      expect((await parts(token, undefined, '&environment=qa')).status).toBe(400);
    });

    it('enforce scopes with 403', async () => {
      const submitOnly = (await mint({ scopes: ['render:submit'] })).json.session_token;
      const r = await parts(submitOnly);
      expect(r.status).toBe(403);
      expect(r.json.error).toBe('missing_scope');
      expect(
        (await api.call('GET', '/render-build/3fa85f64-5717-4562-b3fc-2c963f66afa6', { token: submitOnly })).status,
      ).toBe(403);
      const readOnly = (await mint({ scopes: ['data:read'] })).json.session_token;
      expect(
        (await api.call('POST', '/render-build', { token: readOnly, body: { parts: { GPU: ['x'] } } })).status,
      ).toBe(403);
      expect((await api.call('POST', '/parts', { token: submitOnly, body: { ids: [] } })).status).toBe(403);
    });

    it('bind origin-bound tokens to their browser origin', async () => {
      const bound = (await mint({ scopes: ['data:read'], origin: 'https://shop.example' })).json.session_token;
      expect((await parts(bound, { origin: 'https://shop.example' })).status).toBe(200);
      expect((await parts(bound, { origin: 'https://evil.example' })).status).toBe(401);
      // a browser that sends no Origin (Sec-Fetch-* present) is refused too
      expect((await parts(bound, { 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'cross-site' })).status).toBe(401);
      // server-side use (no browser headers) is allowed: Origin binding protects browsers
      expect((await parts(bound)).status).toBe(200);
    });

    it('accept legacy API keys, with X-Service-Auth-Deprecation only from browsers', async () => {
      const server = await parts(api.key);
      expect(server.status).toBe(200);
      expect(server.headers.get('x-service-auth-deprecation')).toBeNull();
      const browser = await parts(api.key, { origin: 'https://shop.example' });
      expect(browser.status).toBe(200);
      expect(browser.headers.get('x-service-auth-deprecation')).toMatch(/session token/);
      const secFetch = await parts(api.key, { 'sec-fetch-site': 'same-origin' });
      expect(secFetch.headers.get('x-service-auth-deprecation')).not.toBeNull();
    });

    it('refuse a revoked API key with 401', async () => {
      const { key, record } = await createApiKey(api.t.db.db, 'temp-customer', 'prod');
      expect((await parts(key)).status).toBe(200);
      await revokeApiKey(api.t.db.db, record.id);
      const r = await parts(key);
      expect(r.status).toBe(401);
      expect(r.json.error).toBe('revoked_key');
      expect((await mint({}, key)).status).toBe(401);
    });

    it('never echo credentials in error bodies', async () => {
      const r = await parts('not-a-token-secret-value');
      expect(r.text).not.toContain('not-a-token-secret-value');
    });
  });

  describe('CORS', () => {
    it('answers preflights without auth', async () => {
      for (const [path, method] of [
        ['/available-parts', 'GET'],
        ['/render-build', 'POST'],
        ['/auth/render-session', 'POST'],
      ]) {
        const r = await api.call('OPTIONS', path, {
          headers: {
            origin: 'https://shop.example',
            'access-control-request-method': method,
            'access-control-request-headers': 'authorization,content-type',
          },
        });
        expect(r.status).toBe(204);
        expect(r.headers.get('access-control-allow-origin')).toBe('https://shop.example');
        expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
        expect(r.headers.get('access-control-allow-methods')).toContain(method);
      }
    });

    it('puts CORS headers on errors and successes', async () => {
      const e = await parts('bad', { origin: 'https://shop.example' });
      expect(e.status).toBe(401);
      expect(e.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      const ok = await parts(token, { origin: 'https://shop.example' });
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(ok.headers.get('access-control-expose-headers')).toContain('X-Service-Auth-Deprecation');
    });
  });
});
