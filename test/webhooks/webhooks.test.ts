/**
 * Webhooks end to end on real PostgreSQL and a real local HTTP receiver: registration (API and
 * CLI), signed deliveries from the serve process's delivery runner, retries with backoff, the
 * delivery log, and SSRF refusal at registration and at delivery time. Render completion is
 * written the way a worker writes it (test/helpers/render-states.ts).
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { verifyWebhook } from '../../src/webhooks/signature.js';
import { createWebhook, listDeliveries } from '../../src/webhooks/webhooks-repository.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { waitFor } from '../helpers/wait-for.js';
import { markCompleted, markError, markProcessing, renderIdOfJob } from '../helpers/render-states.js';

const run = promisify(execFile);
// deliveries run in the serve process's runner: re-check often, give a retry with backoff time
const SOON = { timeoutMs: 30_000, intervalMs: 100 };
const BIN = path.resolve('bin/render-farm');
const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver: /ok answers 200, /flaky 500 once then 200, /gone always 500. */
async function startReceiver() {
  const got: Received[] = [];
  const seen = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const p = req.url ?? '/';
      got.push({ path: p, headers: req.headers, body });
      const n = (seen.get(p) ?? 0) + 1;
      seen.set(p, n);
      res.statusCode = p === '/ok' || (p === '/flaky' && n > 1) ? 200 : 500;
      res.end('thanks');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { got, base, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let size = 256;
async function newJob(api: TestApi, key: string) {
  size += 8;
  const token = (await api.call('POST', '/auth/render-session', { token: key, body: { ttl_seconds: 300 } })).json
    .session_token;
  const r = await api.call('POST', '/render-build', {
    token,
    body: { parts: glass.parts, format: 'sprite', width: size, height: size, profile: 'fast' },
  });
  expect(r.status).toBe(202);
  return { jobId: r.json.job_id as string, renderId: await renderIdOfJob(api.t.db, r.json.job_id) };
}

describe('webhooks (loopback allowed for the test receiver)', () => {
  let api: TestApi;
  let rx: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    rx = await startReceiver();
    api = await startTestApi({ webhookAllowPrivate: '127.0.0.0/8', webhookAllowHttp: true });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await rx?.close();
  });

  it('registers with an API key (secret shown once) and delivers a signed job.completed', async () => {
    const reg = await api.call('POST', '/webhooks', { token: api.key, body: { url: `${rx.base}/ok` } });
    expect(reg.status).toBe(201);
    expect(reg.json).toMatchObject({
      url: `${rx.base}/ok`,
      events: ['job.completed', 'job.error'],
      signature_header: 'Render-Farm-Signature',
    });
    expect(reg.json.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await api.call('GET', '/webhooks', { token: api.key });
    expect(list.json.webhooks).toHaveLength(1);
    expect(list.text).not.toContain(reg.json.secret);

    const { jobId, renderId } = await newJob(api, api.key);
    await markProcessing(api.t.db, renderId);
    expect(rx.got).toHaveLength(0); // only completed/error are delivered
    await markCompleted(api.t.db, renderId);
    const hit = await waitFor('the delivery', async () => rx.got.find((g) => g.path === '/ok'), SOON);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['render-farm-event']).toBe('job.completed');
    expect(verifyWebhook(reg.json.secret, hit.body, hit.headers['render-farm-signature'] as string)).toBe(true);
    expect(verifyWebhook('whsec_wrong', hit.body, hit.headers['render-farm-signature'] as string)).toBe(false);
    const body = JSON.parse(hit.body);
    expect(body).toMatchObject({
      event: 'job.completed',
      delivery_id: hit.headers['render-farm-delivery'],
      job: { job_id: jobId, status: 'completed', job_type: 'render' },
    });
    expect(body.job.sprite_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/artifacts\/renders\//);

    const log = await waitFor(
      'the log entry',
      async () => {
        const r = await api.call('GET', `/webhooks/${reg.json.id}/deliveries`, { token: api.key });
        return r.json.deliveries[0]?.status === 'delivered' ? r.json.deliveries : null;
      },
      SOON,
    );
    expect(log[0]).toMatchObject({
      job_id: jobId,
      event: 'job.completed',
      status: 'delivered',
      attempts: 1,
      response_status: 200,
      last_error: null,
    });
    expect((await api.call('DELETE', `/webhooks/${reg.json.id}`, { token: api.key })).status).toBe(204);
    expect((await api.call('DELETE', `/webhooks/${reg.json.id}`, { token: api.key })).status).toBe(404);
  });

  it('retries a failing receiver with backoff until it answers 2xx; the log shows the attempts', async () => {
    const { key } = await createApiKey(api.t.db.db, 'flaky-co', 'prod');
    const reg = await api.call('POST', '/webhooks', { token: key, body: { url: `${rx.base}/flaky` } });
    const { jobId, renderId } = await newJob(api, key);
    await markError(api.t.db, renderId, 'parts no longer in the catalog: x');
    // graphile-worker waits exp(1) ≈ 2.7 s before the second attempt
    const d = await waitFor(
      'delivery after a retry',
      async () => {
        const [row] = await listDeliveries(api.t.db, { webhookId: reg.json.id });
        return row?.status === 'delivered' ? row : null;
      },
      SOON,
    );
    expect(d).toMatchObject({ jobId, event: 'job.error', attempts: 2, responseStatus: 200 });
    const hits = rx.got.filter((g) => g.path === '/flaky');
    expect(hits).toHaveLength(2);
    for (const h of hits)
      expect(verifyWebhook(reg.json.secret, h.body, h.headers['render-farm-signature'] as string)).toBe(true);
    expect(JSON.parse(hits[1]!.body).job).toMatchObject({
      status: 'error',
      error: 'parts no longer in the catalog: x',
    });
  });

  it('never blocks the render: a failing receiver leaves the job completed and pollable', async () => {
    const { key } = await createApiKey(api.t.db.db, 'down-co', 'prod');
    await api.call('POST', '/webhooks', { token: key, body: { url: `${rx.base}/gone` } });
    const { jobId, renderId } = await newJob(api, key);
    await markCompleted(api.t.db, renderId);
    await waitFor('a failed attempt', async () => rx.got.some((g) => g.path === '/gone'), SOON);
    const token = (await api.call('POST', '/auth/render-session', { token: key, body: {} })).json.session_token;
    expect((await api.call('GET', `/render-build/${jobId}`, { token })).json.status).toBe('completed');
    const [d] = await listDeliveries(api.t.db, { jobId });
    expect(d).toMatchObject({ status: 'pending', responseStatus: 500, lastError: 'the receiver answered 500' });
  });

  it('OpenAPI documents the event stream, webhook registration and the webhook requests', async () => {
    const doc = (await api.call('GET', '/api-docs/openapi.json')).json;
    const sse = doc.paths['/render-build/{jobId}/events'].get;
    expect(Object.keys(sse.responses[200].content)).toEqual(['text/event-stream']);
    expect(sse.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['access_token', 'Last-Event-ID']),
    );
    expect(sse.description).toMatch(/Last-Event-ID/);
    expect(doc.paths['/webhooks'].post.requestBody.content['application/json'].schema.properties.url).toBeDefined();
    expect(doc.paths['/webhooks/{id}/deliveries'].get).toBeDefined();
    const hook = doc.webhooks['job.completed'].post;
    expect(hook.description).toMatch(/HMAC-SHA256/);
    expect(hook.requestBody.content['application/json'].schema.properties.job.properties.job_id).toBeDefined();
  });

  it('session tokens cannot manage webhooks; bad bodies are 400s', async () => {
    const token = (await api.call('POST', '/auth/render-session', { token: api.key, body: {} })).json.session_token;
    expect((await api.call('POST', '/webhooks', { token, body: { url: `${rx.base}/ok` } })).json.error).toBe(
      'api_key_required',
    );
    expect((await api.call('POST', '/webhooks', { token: api.key, body: {} })).status).toBe(400);
    expect(
      (await api.call('POST', '/webhooks', { token: api.key, body: { url: `${rx.base}/ok`, extra: 1 } })).status,
    ).toBe(400);
    const bad = await api.call('POST', '/webhooks', { token: api.key, body: { url: 'http://10.0.0.1/hook' } });
    expect(bad).toMatchObject({ status: 400, json: { error: 'invalid_webhook_url' } });
  });

  it('CLI: webhooks add prints the secret once; deliveries has headers; loopback refused without the allowance', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: api.t.url,
      RENDER_FARM_DATA_DIR: api.t.cfg.dataDir,
    };
    const allowed = {
      ...env,
      RENDER_FARM_WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8',
      RENDER_FARM_WEBHOOK_ALLOW_HTTP: 'true',
    };
    const added = await run('node', [BIN, 'webhooks', 'add', '--customer', 'cli-co', '--url', `${rx.base}/ok`], {
      env: allowed,
    });
    expect(added.stdout).toMatch(/signing secret: whsec_\S+\nStore it now/);
    const list = await run('node', [BIN, 'webhooks', 'list', '--customer', 'cli-co'], { env });
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+CUSTOMER\s+CREATED\s+URL$/);
    expect(list.stdout).not.toContain('whsec_');
    const deliveries = await run('node', [BIN, 'webhooks', 'deliveries', '--status', 'delivered'], { env });
    expect(deliveries.stdout.split('\n')[0]).toMatch(
      /^DELIVERY\s+CREATED\s+CUSTOMER\s+EVENT\s+STATUS\s+ATTEMPTS\s+HTTP\s+JOB\s+LAST ERROR$/,
    );
    expect(deliveries.stdout).toMatch(/job\.completed\s+delivered\s+1\s+200/);
    // redeliver: a new log entry, sent again (to an active webhook only)
    const all = await listDeliveries(api.t.db, { status: 'delivered' });
    const flaky = all.find((d) => d.url.endsWith('/flaky'))!;
    const removed = all.find((d) => d.url.endsWith('/ok'))!; // its webhook was removed in the first test
    const refusedAgain = await run('node', [BIN, 'webhooks', 'redeliver', removed.id], { env }).catch((e) => e);
    expect(refusedAgain.code).toBe(2);
    const before = rx.got.filter((g) => g.path === '/flaky').length;
    const again = await run('node', [BIN, 'webhooks', 'redeliver', flaky.id], { env });
    const fresh = /^queued delivery ([0-9a-f-]{36})$/.exec(again.stdout.trim())![1]!;
    await waitFor('the redelivery', async () => rx.got.filter((g) => g.path === '/flaky').length > before, SOON);
    await waitFor(
      'the new log entry delivered',
      async () => (await listDeliveries(api.t.db, {})).find((d) => d.id === fresh && d.status === 'delivered'),
      SOON,
    );
    const refused = await run('node', [BIN, 'webhooks', 'add', '--customer', 'cli-co', '--url', `${rx.base}/ok`], {
      env: { ...env, RENDER_FARM_WEBHOOK_ALLOW_HTTP: 'true' },
    }).catch((e) => e);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /127\.0\.0\.1, a private, loopback or reserved address.*RENDER_FARM_WEBHOOK_ALLOW_PRIVATE/,
    );
  });
});

describe('webhooks (strict SSRF policy)', () => {
  let api: TestApi;
  let rx: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    rx = await startReceiver();
    api = await startTestApi({ webhookAllowHttp: true });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await rx?.close();
  });

  it('refuses loopback and private targets at registration, named as the resolved address', async () => {
    for (const url of [
      `${rx.base}/ok`,
      `http://localhost:${new URL(rx.base).port}/ok`,
      'http://[::1]/x',
      'http://169.254.169.254/latest',
      'http://192.168.0.10/',
    ]) {
      const r = await api.call('POST', '/webhooks', { token: api.key, body: { url } });
      expect(r.status, url).toBe(400);
      expect(r.json.error).toBe('invalid_webhook_url');
      expect(r.json.message).toMatch(/private, loopback or reserved/);
    }
  });

  it('refuses at delivery time too (e.g. DNS changed after registration): failed at once, nothing sent', async () => {
    const customer = await api.t.db.db
      .selectFrom('customers')
      .select('id')
      .where('name', '=', 'acme')
      .executeTakeFirstOrThrow();
    // stored directly: the registration check would refuse it
    const { webhook } = await createWebhook(api.t.db, customer.id, `${rx.base}/ok`);
    const { jobId, renderId } = await newJob(api, api.key);
    await markCompleted(api.t.db, renderId);
    const d = await waitFor(
      'the refused delivery',
      async () => {
        const [row] = await listDeliveries(api.t.db, { webhookId: webhook.id });
        return row && row.status !== 'pending' ? row : null;
      },
      SOON,
    );
    expect(d).toMatchObject({ jobId, status: 'failed', attempts: 1, responseStatus: null });
    expect(d.lastError).toMatch(/127\.0\.0\.1, a private, loopback or reserved address/);
    expect(rx.got).toHaveLength(0);
  });
});
