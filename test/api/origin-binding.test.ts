/**
 * Origins as token brokers send them: case, default ports and trailing slashes are normalised
 * at minting and when comparing with the request's Origin; "null" (a broker forwarding a
 * browser that sent no Origin) means no binding.
 */
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { mintSessionToken } from '../../src/auth/session-token.js';
import { useTestApi } from '../helpers/api.js';

describe('origin binding', () => {
  const api = useTestApi();

  const mint = (origin: string) =>
    api.call('POST', '/auth/render-session', { token: api.key, body: { scopes: ['data:read'], origin } });
  const parts = (token: string, headers: Record<string, string> = {}) =>
    api.call('GET', '/available-parts?category=GPU&limit=1', { token, headers });

  it.each([
    ['https://YourSite.com', 'https://yoursite.com'],
    ['https://yoursite.com:443', 'https://yoursite.com'],
    ['https://yoursite.com/', 'https://yoursite.com'],
    ['HTTP://YourSite.com:80/', 'http://yoursite.com'],
    ['https://yoursite.com:8443', 'https://yoursite.com:8443'],
  ])('mints for %s, bound to %s', async (sent, bound) => {
    const r = await mint(sent);
    expect(r.status).toBe(200);
    expect(r.json.origin).toBe(bound);
    expect((jwt.decode(r.json.session_token) as { org: string }).org).toBe(bound);
  });

  it('"null" is no binding, not a 400', async () => {
    const r = await mint('null');
    expect(r.status).toBe(200);
    expect(r.json.origin).toBeUndefined();
    expect((jwt.decode(r.json.session_token) as { org?: string }).org).toBeUndefined();
  });

  it('compares the normalised forms of the binding and the request Origin', async () => {
    const token = (await mint('https://YourSite.com:443/')).json.session_token;
    expect((await parts(token, { origin: 'https://yoursite.com' })).status).toBe(200);
    expect((await parts(token, { origin: 'https://YOURSITE.com:443' })).status).toBe(200);
    expect((await parts(token, { origin: 'https://evil.example' })).status).toBe(401);
    expect((await parts(token, { origin: 'http://yoursite.com' })).status).toBe(401);
    // an opaque origin (sandboxed frame, file://) is a browser that sent no usable Origin
    const opaque = await parts(token, { origin: 'null' });
    expect(opaque.status).toBe(401);
    expect(opaque.json.error).toBe('origin_mismatch');
  });

  it('a token whose binding was stored un-normalised (minted elsewhere) still matches', async () => {
    const claims = jwt.decode((await mint('https://shop.example')).json.session_token) as { sub: string };
    const legacy = mintSessionToken(api.server.ctx.secret, {
      customerId: claims.sub,
      customerName: 'acme',
      scopes: ['data:read'],
      environment: 'prod',
      ttlSeconds: 60,
      origin: 'https://Shop.Example:443',
    }).session_token;
    expect((await parts(legacy, { origin: 'https://shop.example' })).status).toBe(200);
  });

  it('still refuses what is not an origin', async () => {
    for (const bad of [
      'ftp://x.example',
      'https://shop.example/path',
      'https://user:pw@shop.example',
      'shop.example',
    ]) {
      const r = await mint(bad);
      expect(r.status, bad).toBe(400);
      expect(
        r.json.details.map((d: { field: string }) => d.field),
        bad,
      ).toContain('origin');
    }
  });
});
