/**
 * Jobs belong to an environment: a staging credential of the same customer cannot read the
 * customer's prod jobs (404, as for another customer's job).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { useTestApi } from '../helpers/api.js';

describe('job environments', () => {
  const api = useTestApi();
  let stagingKey: string;
  beforeAll(async () => {
    stagingKey = (await createApiKey(api.t.db.db, 'acme', 'staging')).key;
  });

  it('a staging credential of the same customer cannot read a prod job', async () => {
    const submitted = await api.call('POST', '/render-build', {
      token: api.key,
      body: { parts: DEMO_BUILDS[0].parts, format: 'sprite', cameraZoom: 1.37 },
    });
    expect(submitted.status).toBe(202);
    const id = submitted.json.job_id;

    expect((await api.call('GET', `/render-build/${id}`, { token: api.key })).status).toBe(200);
    const staging = await api.call('GET', `/render-build/${id}`, { token: stagingKey });
    expect(staging.status).toBe(404);
    expect(staging.json.error).toBe('job_not_found');
    const stagingToken = (
      await api.call('POST', '/auth/render-session', { token: stagingKey, body: { scopes: ['render:status'] } })
    ).json.session_token;
    expect((await api.call('GET', `/render-build/${id}`, { token: stagingToken })).status).toBe(404);
    // a prod session token of the customer still reads it
    const prodToken = (
      await api.call('POST', '/auth/render-session', { token: api.key, body: { scopes: ['render:status'] } })
    ).json.session_token;
    expect((await api.call('GET', `/render-build/${id}`, { token: prodToken })).status).toBe(200);
    const row = await api.t.db.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.environment).toBe('prod');
  });
});
