/**
 * Control characters (NUL above all: PostgreSQL text cannot hold it) in any string a request
 * carries are refused at validation with 400 naming the field, never a 500 from the database.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isErrorBody, useTestApi, mintSession } from '../helpers/api.js';

describe('control characters in request strings', () => {
  const api = useTestApi();
  let token: string;
  beforeAll(async () => {
    token = await mintSession(api, { scopes: ['data:read', 'render:submit', 'render:status'] });
  });

  const fields = (json: { details?: { field?: string }[] }) => (json.details ?? []).map((d) => d.field);

  it('GET /build/a%00b -> 400 naming shareCode', async () => {
    const r = await api.call('GET', '/build/a%00b', { token });
    expect(r.status).toBe(400);
    expect(isErrorBody(r.json)).toBe(true);
    expect(fields(r.json)).toContain('shareCode');
  });

  it.each(['\u0000', 'ab\u0000c', 'x\u0007', 'a\nb', '\u007f'])(
    'POST /parts with id %j -> 400 naming ids.0',
    async (id) => {
      const r = await api.call('POST', '/parts', { token, body: { ids: [id] } });
      expect(r.status).toBe(400);
      expect(isErrorBody(r.json)).toBe(true);
      expect(fields(r.json)).toContain('ids.0');
    },
  );

  it.each(['/render-build', '/internal-render', '/render-build-experimental'])(
    'POST %s with a NUL part id -> 400 naming the part',
    async (path) => {
      const r = await api.call('POST', path, { token, body: { parts: { GPU: ['a\u0000b'] }, format: 'sprite' } });
      expect(r.status).toBe(400);
      expect(isErrorBody(r.json)).toBe(true);
      expect(fields(r.json)).toContain('parts.GPU.0');
    },
  );

  it('POST /render-by-share-code with a NUL share code -> 400 naming shareCode', async () => {
    const r = await api.call('POST', '/render-by-share-code', { token, body: { shareCode: 'DEMO\u0000GLASS' } });
    expect(r.status).toBe(400);
    expect(isErrorBody(r.json)).toBe(true);
    expect(fields(r.json)).toContain('shareCode');
  });

  it('POST /auth/render-session with a control character in origin -> 400 naming origin', async () => {
    const r = await api.call('POST', '/auth/render-session', {
      token: api.key,
      body: { origin: 'https://shop.example\u0000' },
    });
    expect(r.status).toBe(400);
    expect(fields(r.json)).toContain('origin');
  });

  it('ordinary IDs still pass', async () => {
    expect((await api.call('POST', '/parts', { token, body: { ids: ['nosuchpart'] } })).json).toEqual({ parts: [] });
    expect((await api.call('GET', '/build/DEMO-GLASS', { token })).status).toBe(200);
  });
});

describe('the database backstop', () => {
  it('maps PostgreSQL refusing a NUL (text and jsonb) to 400, not 500', async () => {
    const { toAnswer: toHttpError } = await import('../../src/http/errors.js');
    const { createTestDb } = await import('../helpers/db.js');
    const t = await createTestDb();
    try {
      for (const q of ['SELECT $1::text AS v', 'SELECT $1::jsonb AS v']) {
        const arg = q.includes('jsonb') ? '"a\\u0000b"' : 'a\u0000b';
        const err = await t.db.pool.query(q, [arg]).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err, q).not.toBeNull();
        expect(toHttpError(err)?.status, q).toBe(400);
      }
    } finally {
      await t.close();
    }
  });
});
