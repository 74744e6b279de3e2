/** gridSettings.color over the API: CSS forms share a render, junk is a 400 naming the field. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { isErrorBody, startTestApi, type TestApi } from '../helpers/api.js';

describe('gridSettings.color over the API', () => {
  let api: TestApi;
  let token: string;
  const parts = DEMO_BUILDS[0]!.parts;
  beforeAll(async () => {
    api = await startTestApi();
    token = (
      await api.call('POST', '/auth/render-session', {
        token: api.key,
        body: { scopes: ['render:submit', 'render:status'] },
      })
    ).json.session_token;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('#fff, white and #ffffff are one render (one job for this customer)', async () => {
    const submit = (color: string) =>
      api.call('POST', '/render-build', {
        token,
        body: { parts, format: 'sprite', width: 256, height: 256, gridSettings: { color } },
      });
    const first = await submit('#fff');
    expect(first.status).toBe(202);
    for (const color of ['white', '#ffffff', 'rgb(255, 255, 255)', 'hsl(0 0% 100%)']) {
      const again = await submit(color);
      expect(again.status, color).toBe(200);
      expect(again.json, color).toEqual({ job_id: first.json.job_id, status: 'processing', reused: true });
    }
    expect((await submit('#eee')).json.job_id).not.toBe(first.json.job_id);
  });

  it('an invalid colour is a 400 naming gridSettings.color', async () => {
    for (const path of ['/render-build', '/render-by-share-code']) {
      const body = path === '/render-build' ? { parts } : { shareCode: 'DEMO-GLASS' };
      const r = await api.call('POST', path, { token, body: { ...body, gridSettings: { color: 'not-a-colour' } } });
      expect(r.status, path).toBe(400);
      expect(isErrorBody(r.json)).toBe(true);
      expect(r.json.details).toEqual([
        { field: 'gridSettings.color', message: expect.stringMatching(/expected a CSS colour/) },
      ]);
    }
  });

  it('the OpenAPI document describes the accepted forms', async () => {
    const doc = (await api.call('GET', '/api-docs/openapi.json')).text;
    expect(doc).toContain('rgb()/rgba(), hsl()/hsla(), or a CSS colour name');
  });
});
