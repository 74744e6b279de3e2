import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { isErrorBody, startTestApi, type TestApi } from '../helpers/api.js';

describe('service endpoints', () => {
  let api: TestApi;
  let token: string;
  beforeAll(async () => {
    api = await startTestApi();
    token = (await api.call('POST', '/auth/render-session', { token: api.key, body: { scopes: ['data:read', 'render:submit', 'render:status'] } })).json.session_token;
  });
  afterAll(async () => api?.close());

  it('GET /health needs no auth and reports the database', async () => {
    const r = await api.call('GET', '/health');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'ok', db: 'ok', queue: { queued: 0, processing: 0 }, workers: 0 });
    expect(r.json.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('serves an OpenAPI document listing every spec endpoint, generated from the zod schemas', async () => {
    const r = await api.call('GET', '/api-docs/openapi.json');
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe('3.1.0');
    for (const p of ['/auth/render-session', '/available-parts', '/render-build', '/render-build/{jobId}', '/render-by-share-code', '/build/{shareCode}', '/parts', '/render-build-experimental', '/internal-render', '/health']) {
      expect(r.json.paths[p], p).toBeDefined();
    }
    const body = r.json.paths['/render-build'].post.requestBody.content['application/json'].schema;
    expect(body.properties.width).toMatchObject({ type: 'integer', minimum: 256, maximum: 8192 });
    expect(body.properties.scene.enum).toContain('studio_v2');
    expect(body.additionalProperties).toBe(false);
    const mint = r.json.paths['/auth/render-session'].post.requestBody.content['application/json'].schema;
    expect(mint.properties.ttl_seconds).toMatchObject({ minimum: 30, maximum: 300 });
  });

  it('serves the interactive docs page from local assets', async () => {
    const page = await fetch(`${api.url}/api-docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    expect(html).not.toMatch(/https?:\/\//);
    const js = await fetch(`${api.url}/api-docs/assets/swagger-ui-bundle.js`);
    expect(js.status).toBe(200);
    expect((await js.text()).length).toBeGreaterThan(100_000);
    const redirect = await fetch(`${api.url}/api-docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
  });

  it('unknown routes get the error body', async () => {
    const r = await api.call('GET', '/nope');
    expect(r.status).toBe(404);
    expect(isErrorBody(r.json)).toBe(true);
  });

  describe('render submission validation (the job farm itself comes later)', () => {
    const parts = async () => {
      const out: Record<string, string[]> = {};
      for (const c of ['PCCase', 'GPU']) {
        out[c] = [(await api.call('GET', `/available-parts?category=${c}&limit=1`, { token })).json.data[c][0].id];
      }
      return out;
    };
    it.each([
      [{}, 400],
      [{ parts: {} }, 400],
      [{ parts: { Toaster: ['x'] } }, 400],
      [{ parts: { GPU: ['no-such-part-id'] } }, 404],
    ])('%j -> %i', async (body, want) => {
      const r = await api.call('POST', '/render-build', { token, body });
      expect(r.status).toBe(want);
      expect(isErrorBody(r.json)).toBe(true);
    });

    it('rejects bad options with 400', async () => {
      const base = { parts: await parts(), format: 'sprite' };
      for (const extra of [
        { width: 300 },
        { width: 255, height: 256 },
        { width: 8193, height: 256 },
        { winterMode: true, springMode: true },
        { format: 'gif' },
        { profile: 'ultra' },
        { frameQuality: 'max' },
        { scene: 'moon' },
        { gridSettings: { colour: '#fff' } },
        { bogus: 1 },
      ]) {
        const r = await api.call('POST', '/render-build', { token, body: { ...base, ...extra } });
        expect(r.status, JSON.stringify(extra)).toBe(400);
        expect(isErrorBody(r.json)).toBe(true);
      }
    });

    it('names unknown part IDs in the 404 and refuses staging', async () => {
      const r = await api.call('POST', '/render-build', { token, body: { parts: { GPU: ['aaaa1111', 'bbbb2222'] } } });
      expect(r.json.message).toContain('aaaa1111');
      expect(r.json.message).toContain('bbbb2222');
      const staging = await api.call('POST', '/render-build?environment=staging', { token, body: { parts: await parts() } });
      expect([400, 401]).toContain(staging.status);
    });

    it('valid submissions say plainly that the job farm is not there yet (501)', async () => {
      const r = await api.call('POST', '/render-build', { token, body: { parts: await parts(), cameraZoom: 9 } });
      expect(r.status).toBe(501);
      expect(r.json.error).toBe('not_implemented');
    });

    it('share-code submissions: unknown code 404, missing code 400', async () => {
      expect((await api.call('POST', '/render-by-share-code', { token, body: { shareCode: 'no-such-code' } })).status).toBe(404);
      expect((await api.call('POST', '/render-by-share-code', { token, body: { format: 'sprite' } })).status).toBe(400);
      expect((await api.call('POST', '/render-by-share-code', { token, body: { shareCode: DEMO_BUILDS[0].shareCode } })).status).toBe(501);
    });

    it('polling: malformed or unknown job id -> 404', async () => {
      expect((await api.call('GET', '/render-build/not-a-uuid', { token })).status).toBe(404);
      expect((await api.call('GET', '/render-build/3fa85f64-5717-4562-b3fc-2c963f66afa6', { token })).status).toBe(404);
    });

    it('legacy endpoint: empty body 400, never-pregenerated 404', async () => {
      expect((await api.call('POST', '/render-build-experimental', { token, body: {} })).status).toBe(400);
      const r = await api.call('POST', '/render-build-experimental', { token, body: { parts: await parts() } });
      expect(r.status).toBe(404);
      expect(r.json.error).toBe('not_pregenerated');
    });
  });
});
