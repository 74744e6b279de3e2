/**
 * JSON endpoints refuse a body they cannot read (415 saying to send application/json) instead
 * of falling back to defaults; a missing body gets a human message.
 */
import http from 'node:http';
import jwt from 'jsonwebtoken';
import { beforeAll, describe, expect, it } from 'vitest';
import { isErrorBody, useTestApi, mintSession } from '../helpers/api.js';

/** A raw request: fetch always adds a Content-Type to a string body, this does not. */
function rawPost(url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('JSON request bodies', () => {
  const api = useTestApi();
  let token: string;
  beforeAll(async () => {
    token = await mintSession(api, { scopes: ['data:read', 'render:submit', 'render:status'] });
  });

  const wanted = JSON.stringify({ ttl_seconds: 30, scopes: ['data:read'], origin: 'https://shop.example' });

  it.each([
    ['text/plain', 'text/plain;charset=UTF-8'],
    ['a form (curl -d)', 'application/x-www-form-urlencoded'],
  ])('POST /auth/render-session with a %s body -> 415, no token minted with defaults', async (_name, type) => {
    const r = await api.call('POST', '/auth/render-session', {
      token: api.key,
      raw: wanted,
      headers: { 'content-type': type },
    });
    expect(r.status).toBe(415);
    expect(isErrorBody(r.json)).toBe(true);
    expect(r.json.error).toBe('unsupported_media_type');
    expect(r.json.message).toContain('application/json');
    expect(r.json.session_token).toBeUndefined();
  });

  it('a body without any Content-Type -> 415', async () => {
    const r = await rawPost(
      `${api.url}/auth/render-session`,
      { authorization: `Bearer ${api.key}`, 'content-length': String(Buffer.byteLength(wanted)) },
      wanted,
    );
    expect(r.status).toBe(415);
    expect(r.json.error).toBe('unsupported_media_type');
  });

  it.each(['/parts', '/render-build', '/render-by-share-code', '/internal-render', '/render-build-experimental'])(
    'POST %s with a text/plain body -> 415',
    async (path) => {
      const r = await api.call('POST', path, { token, raw: '{"ids":[]}', headers: { 'content-type': 'text/plain' } });
      expect(r.status).toBe(415);
      expect(r.json.error).toBe('unsupported_media_type');
    },
  );

  it('application/json with a charset and application/*+json are read', async () => {
    const a = await api.call('POST', '/auth/render-session', {
      token: api.key,
      raw: wanted,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ expires_in: 30, scopes: ['data:read'], origin: 'https://shop.example' });
    const b = await api.call('POST', '/parts', {
      token,
      raw: '{"ids":[]}',
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(b.status).toBe(200);
  });

  it('POST /auth/render-session with no body at all mints with the defaults (every field is optional)', async () => {
    const r = await rawPost(`${api.url}/auth/render-session`, { authorization: `Bearer ${api.key}` });
    expect(r.status).toBe(200);
    expect(r.json.expires_in).toBe(120);
    expect((jwt.decode(r.json.session_token) as { org?: string }).org).toBeUndefined();
  });

  it('a missing body where fields are required -> 400 with a human message', async () => {
    for (const path of ['/parts', '/render-build', '/render-by-share-code']) {
      const r = await rawPost(`${api.url}${path}`, { authorization: `Bearer ${token}` });
      expect(r.status, path).toBe(400);
      expect(r.json.error, path).toBe('missing_body');
      expect(r.json.message, path).toContain('application/json');
      expect(r.json.message, path).not.toMatch(/undefined/);
    }
  });

  it('malformed JSON -> 400 invalid_json naming the line and column of the mistake', async () => {
    const body = '{\n  "shareCode": "DEMO-GLASS",\n  "format": "sprite",\n  "width": 256,,\n  "height": 256\n}';
    const r = await api.call('POST', '/render-by-share-code', { token, raw: body });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('invalid_json');
    expect(r.json.message).toBe(
      "the request body is not valid JSON: unexpected ',' (expected a property name in double quotes) at line 4, column 16",
    );
    expect(r.json.details).toEqual([
      {
        message: "unexpected ',' (expected a property name in double quotes) at line 4, column 16",
        line: 4,
        column: 16,
        offset: body.indexOf(',,') + 1,
      },
    ]);
    const cut = await api.call('POST', '/auth/render-session', { token: api.key, raw: '{"ttl_seconds":' });
    expect(cut.json.message).toBe(
      'the request body is not valid JSON: the body ends early (expected a value) at line 1, column 16',
    );
  });

  it('a JSON body that is not an object -> 400 saying so', async () => {
    const r = await api.call('POST', '/render-build', { token, raw: '[1,2]' });
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('must be a JSON object');
  });
});
