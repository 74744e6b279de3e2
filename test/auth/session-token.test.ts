import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_KEY_SCOPES,
  API_KEY_SCOPES,
  DEFAULT_TOKEN_SCOPES,
  hasScope,
  isScope,
  SCOPES,
  TOKEN_SCOPES,
} from '../../src/auth/scopes.js';
import { hashApiKey, API_KEY_PATTERN, looksLikeApiKey } from '../../src/auth/api-keys.js';
import { mintSessionToken, TokenError, verifySessionToken } from '../../src/auth/session-token.js';

const SECRET = 'unit-test-secret-'.padEnd(48, 's');
const base = {
  customerId: '0b6f4d52-6c1a-4a55-9f4e-7a4a3bb0c111',
  customerName: 'acme',
  scopes: ['data:read'] as const,
  environment: 'prod' as const,
  ttlSeconds: 120,
};

describe('session tokens', () => {
  it('carry customer, scopes, environment, origin, expiry and an id', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const t = mintSessionToken(SECRET, { ...base, origin: 'https://shop.example', keyId: 'k1', now });
    expect(t).toMatchObject({
      token_type: 'Bearer',
      expires_in: 120,
      expires_at: '2026-01-01T00:02:00.000Z',
      scopes: ['data:read'],
      environment: 'prod',
    });
    const c = verifySessionToken(SECRET, t.session_token, new Date('2026-01-01T00:01:00Z'));
    expect(c).toMatchObject({
      sub: base.customerId,
      cus: 'acme',
      scp: ['data:read'],
      env: 'prod',
      org: 'https://shop.example',
      kid: 'k1',
    });
    expect(c.exp - c.iat).toBe(120);
    const other = mintSessionToken(SECRET, { ...base, now });
    expect(verifySessionToken(SECRET, other.session_token, now).jti).not.toBe(c.jti);
  });

  it('expire', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const t = mintSessionToken(SECRET, { ...base, now });
    expect(() => verifySessionToken(SECRET, t.session_token, new Date('2026-01-01T00:02:01Z'))).toThrow(/expired/);
    try {
      verifySessionToken(SECRET, t.session_token, new Date('2026-01-01T00:05:00Z'));
    } catch (e) {
      expect((e as TokenError).reason).toBe('expired');
    }
  });

  it('pin HS256: alg none, HS512 and other secrets are invalid', () => {
    const t = mintSessionToken(SECRET, base);
    const payload = jwt.decode(t.session_token) as Record<string, unknown>;
    const hs512 = jwt.sign(payload, SECRET, { algorithm: 'HS512' });
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${t.session_token.split('.')[1]}.`;
    const other = jwt.sign(payload, 'x'.repeat(48), { algorithm: 'HS256' });
    for (const bad of [hs512, none, other, 'abc', '']) {
      expect(() => verifySessionToken(SECRET, bad)).toThrow(TokenError);
    }
  });

  it('require issuer, audience and claims', () => {
    const noAud = jwt.sign({ sub: 'x', scp: [], env: 'prod' }, SECRET, {
      algorithm: 'HS256',
      expiresIn: 60,
      issuer: 'render-farm',
    });
    expect(() => verifySessionToken(SECRET, noAud)).toThrow(TokenError);
    const badEnv = jwt.sign({ sub: 'x', scp: [], env: 'qa' }, SECRET, {
      algorithm: 'HS256',
      expiresIn: 60,
      issuer: 'render-farm',
      audience: 'render-api',
    });
    expect(() => verifySessionToken(SECRET, badEnv)).toThrow(/claims/);
  });
});

describe('scopes and keys', () => {
  it('default token scopes are submit + status; API keys get every token scope, admin keys also models:write', () => {
    expect([...DEFAULT_TOKEN_SCOPES].sort()).toEqual(['render:status', 'render:submit']);
    expect([...API_KEY_SCOPES].sort()).toEqual([...TOKEN_SCOPES].sort());
    expect(API_KEY_SCOPES).not.toContain('models:write');
    expect([...ADMIN_KEY_SCOPES].sort()).toEqual([...SCOPES].sort());
    expect(ADMIN_KEY_SCOPES).toContain('models:write');
    expect(hasScope(['data:read'], 'data:read')).toBe(true);
    expect(hasScope(['data:read'], 'render:submit')).toBe(false);
    expect(isScope('admin:all')).toBe(false);
  });

  it('key format and hashing', () => {
    const key = `rfk_prod_${'a'.repeat(43)}`;
    expect(API_KEY_PATTERN.test(key)).toBe(true);
    expect(looksLikeApiKey(key)).toBe(true);
    expect(looksLikeApiKey('eyJhbGciOi')).toBe(false);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toBe(hashApiKey(key + 'b'));
  });
});
