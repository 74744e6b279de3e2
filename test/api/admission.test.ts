/**
 * Cost-aware admission through the real API (no worker: new renders stay queued, so the
 * customer's in-flight work only grows): 422 over the frame bound or the per-job ceiling,
 * 429 customer_busy with Retry-After over the per-customer in-flight cap; reuse adds no work.
 */
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { estimateRenderCost } from '../../src/jobs/cost-model.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { isErrorBody, useTestApi } from '../helpers/api.js';

const SMALL = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;
const SMALL_COST = estimateRenderCost(resolveRenderOptions(SMALL)).seconds;

describe('admission', () => {
  const parts = DEMO_BUILDS[0].parts;
  // room for exactly three small renders in flight
  const cap = Math.ceil(SMALL_COST * 3.5);
  const api = useTestApi({ maxCustomerInFlightSeconds: cap });

  const submit = (body: Record<string, unknown>, key = api.key) =>
    api.call('POST', '/render-build', { token: key, body: { parts, ...body } });

  it('refuses an 8192x8192 cinematic video by the frame bound: 422 frame_too_large naming the limit', async () => {
    const r = await submit({ format: 'video', width: 8192, height: 8192, profile: 'cinematic' });
    expect(r.status).toBe(422);
    expect(isErrorBody(r.json)).toBe(true);
    expect(r.json.error).toBe('frame_too_large');
    expect(r.json.message).toContain('limit of 16.8');
    expect(r.json.details[0]).toMatchObject({ limit_megapixels: 16.8, frame_megapixels: 67.11 });
  });

  it('refuses a render over the per-job ceiling: 422 render_too_expensive naming estimate and limit', async () => {
    const r = await submit({ format: 'video', width: 4096, height: 4096, profile: 'cinematic' });
    expect(r.status).toBe(422);
    expect(isErrorBody(r.json)).toBe(true);
    expect(r.json.error).toBe('render_too_expensive');
    expect(r.json.details[0]).toMatchObject({ limit_seconds: 600 });
    expect(r.json.details[0].estimate_seconds).toBeGreaterThan(600);
    expect(r.json.message).toContain('per-job limit of 600 s');
    const queued = await api.t.db.db.selectFrom('renders').select('id').execute();
    expect(queued).toHaveLength(0);
  });

  it('caps a customer at its in-flight work with 429 + Retry-After; a reuse still answers; another customer is not affected', async () => {
    for (const zoom of [1.01, 1.02, 1.03]) expect((await submit({ ...SMALL, cameraZoom: zoom })).status).toBe(202);
    const over = await submit({ ...SMALL, cameraZoom: 1.04 });
    expect(over.status).toBe(429);
    expect(isErrorBody(over.json)).toBe(true);
    expect(over.json.error).toBe('customer_busy');
    expect(over.json.message).toContain(`limit of ${cap} s`);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(5);
    // the same request again is a reuse: no new work, so not refused
    const reuse = await submit({ ...SMALL, cameraZoom: 1.01 });
    expect(reuse.status).toBe(200);
    expect(reuse.json.reused).toBe(true);
    const { key: other } = await createApiKey(api.t.db.db, 'globex', 'prod');
    expect((await submit({ ...SMALL, cameraZoom: 1.04 }, other)).status).toBe(202);
  });

  it('frees room when in-flight work finishes', async () => {
    const { key } = await createApiKey(api.t.db.db, 'initech', 'prod');
    for (const zoom of [1.11, 1.12, 1.13]) expect((await submit({ ...SMALL, cameraZoom: zoom }, key)).status).toBe(202);
    expect((await submit({ ...SMALL, cameraZoom: 1.14 }, key)).status).toBe(429);
    const jobs = await api.t.db.db
      .selectFrom('jobs')
      .innerJoin('customers', 'customers.id', 'jobs.customer_id')
      .select('jobs.render_id')
      .where('customers.name', '=', 'initech')
      .execute();
    await api.t.db.db
      .updateTable('renders')
      .set({ status: 'completed' })
      .where('id', '=', jobs[0]!.render_id)
      .execute();
    expect((await submit({ ...SMALL, cameraZoom: 1.14 }, key)).status).toBe(202);
  });
});
