import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { isErrorBody, useTestApi, mintSession } from '../helpers/api.js';

describe('service endpoints', () => {
  const api = useTestApi({ internalRenderWaitSeconds: 1 });
  let token: string;
  beforeAll(async () => {
    token = await mintSession(api, { scopes: ['data:read', 'render:submit', 'render:status'] });
  });

  it('GET /health needs no auth and reports the database', async () => {
    const r = await api.call('GET', '/health');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'ok', db: 'ok', workers: 0 });
    const kind = { queued: expect.any(Number), processing: expect.any(Number) };
    expect(r.json.queue).toEqual({
      ...kind,
      by_kind: { render: kind, thumbnail: { ...kind, failed: expect.any(Number) } },
      chunks: kind,
    });
    expect(r.json.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('serves an OpenAPI document listing every spec endpoint, generated from the zod schemas', async () => {
    const r = await api.call('GET', '/api-docs/openapi.json');
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe('3.1.0');
    for (const p of [
      '/auth/render-session',
      '/available-parts',
      '/render-build',
      '/render-build/{jobId}',
      '/render-by-share-code',
      '/build/{shareCode}',
      '/parts',
      '/render-build-experimental',
      '/internal-render',
      '/health',
    ]) {
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

  describe('render submission without a worker', () => {
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
      const staging = await api.call('POST', '/render-build?environment=staging', {
        token,
        body: { parts: await parts() },
      });
      expect([400, 401]).toContain(staging.status);
    });

    it('a valid submission is accepted (202 processing), then reused; the job polls as queued', async () => {
      const body = { parts: await parts(), cameraZoom: 9, format: 'sprite', width: 256, height: 256, profile: 'fast' };
      const r = await api.call('POST', '/render-build', { token, body });
      expect(r.status).toBe(202);
      expect(Object.keys(r.json).sort()).toEqual(['job_id', 'status']);
      expect(r.json.status).toBe('processing');
      const again = await api.call('POST', '/render-build', { token, body: { ...body, cameraZoom: 2 } });
      expect(again.json).toEqual({ job_id: r.json.job_id, status: 'processing', reused: true });
      const poll = await api.call('GET', `/render-build/${r.json.job_id}`, { token });
      expect(poll.status).toBe(200);
      expect(poll.json).toMatchObject({
        job_id: r.json.job_id,
        status: 'queued',
        job_type: 'render',
        url: null,
        sprite_url: null,
        video_url: null,
        end_time: null,
        progress: 0,
      });
      const health = await api.call('GET', '/health');
      expect(health.json.queue.queued).toBeGreaterThanOrEqual(1);
    });

    it('another customer cannot see the job (404) but gets its own id for the same render', async () => {
      const body = { parts: await parts(), cameraZoom: 1.77 };
      const mine = await api.call('POST', '/render-build', { token, body });
      const { createApiKey } = await import('../../src/auth/api-keys.js');
      const other = (await createApiKey(api.t.db.db, 'globex')).key;
      expect((await api.call('GET', `/render-build/${mine.json.job_id}`, { token: other })).status).toBe(404);
      const theirs = await api.call('POST', '/render-build', { token: other, body });
      expect(theirs.json.reused).toBe(true);
      expect(theirs.json.job_id).not.toBe(mine.json.job_id);
      expect((await api.call('GET', `/render-build/${theirs.json.job_id}`, { token: other })).status).toBe(200);
    });

    it('rejects more parts per category than a PC holds', async () => {
      const r = await api.call('POST', '/render-build', { token, body: { parts: { PCCase: ['a', 'b'] } } });
      expect(r.status).toBe(400);
      expect(r.json.error).toBe('invalid_parts');
    });

    it('internal-render waits at most its bound and answers 202 with the job while still queued', async () => {
      const r = await api.call('POST', '/internal-render', { token, body: { parts: await parts(), cameraZoom: 0.66 } });
      expect(r.status).toBe(202);
      expect(r.json).toMatchObject({ status: 'queued', job_type: 'render' });
    });

    it('share-code submissions: unknown code 404, missing code 400, known code carries share_code', async () => {
      expect(
        (await api.call('POST', '/render-by-share-code', { token, body: { shareCode: 'no-such-code' } })).status,
      ).toBe(404);
      expect((await api.call('POST', '/render-by-share-code', { token, body: { format: 'sprite' } })).status).toBe(400);
      const r = await api.call('POST', '/render-by-share-code', {
        token,
        body: { shareCode: DEMO_BUILDS[0].shareCode },
      });
      expect(r.status).toBe(202);
      expect(r.json).toMatchObject({ status: 'processing', share_code: DEMO_BUILDS[0].shareCode });
    });

    it('GET /metrics exposes submissions and queue depth', async () => {
      const r = await fetch(`${api.url}/metrics`);
      const text = await r.text();
      expect(text).toMatch(/render_farm_submissions_total\{outcome="new",format="(video|sprite)"\} \d+/);
      expect(text).toMatch(/render_farm_queue_depth\{kind="render"\} \d+/);
      expect(text).toMatch(/render_farm_queue_depth\{kind="thumbnail"\} \d+/);
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
