/**
 * /api-docs/openapi.json for client generators (docs/api.md): Redocly's recommended rules
 * pass with no ignore file, every operation has a stable operationId, public operations say so,
 * `servers` is this deployment, and every operation lists the error statuses it answers with,
 * checked against the real server by probing each one.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/api/server.js';
import { childEnvironment } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { isErrorBody, useTestApi } from '../helpers/api.js';
import { runProcess } from '../helpers/run-process.js';

// enough failed authentications for every probe: the per-address limit would answer 429 after 30
const api = useTestApi({ authFailureBurst: 1000 });

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; schema?: { format?: string } }>;
  requestBody?: unknown;
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
}

type Doc = {
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };
};

function operations(group: Doc['paths']): Array<{ method: string; path: string; op: Operation }> {
  return Object.entries(group).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path: p, op: item[m] })),
  );
}

/**
 * The operationIds clients are generated with: stable, so this list changes only by adding.
 * Renaming one breaks every generated client (docs/api.md).
 */
const OPERATION_IDS: Record<string, string> = {
  'POST /auth/render-session': 'mintToken',
  'GET /available-parts': 'listAvailableParts',
  'POST /parts': 'getParts',
  'GET /part/{id}': 'getPart',
  'GET /build/{shareCode}': 'getBuild',
  'POST /render-build': 'renderBuild',
  'GET /render-build/{jobId}': 'getRenderJob',
  'POST /render-build/{jobId}/cancel': 'cancelRenderJob',
  'GET /render-build/{jobId}/events': 'followRenderJobEvents',
  'POST /render-by-share-code': 'renderByShareCode',
  'POST /internal-render': 'internalRender',
  'POST /render-build-experimental': 'renderBuildExperimental',
  'GET /health': 'getHealth',
  'GET /metrics': 'getMetrics',
  'GET /artifacts/{key}': 'getArtifact',
  'GET /assets/parts/{id}': 'getPartImage',
  'GET /api-docs/openapi.json': 'getOpenApiDocument',
  'POST /webhooks': 'createWebhook',
  'GET /webhooks': 'listWebhooks',
  'DELETE /webhooks/{id}': 'deleteWebhook',
  'GET /webhooks/{id}/deliveries': 'listWebhookDeliveries',
  'GET /models': 'listPartModels',
  'PUT /models/{partId}': 'putPartModel',
  'GET /models/{partId}': 'getPartModel',
  'DELETE /models/{partId}': 'deletePartModel',
  'POST /models/{partId}/rollback': 'rollbackPartModel',
  'POST job.completed': 'jobCompletedWebhook',
  'POST job.error': 'jobErrorWebhook',
};

/** Routes that need no credentials (public by design: <img>/<video> tags, probes, scrapers). */
const PUBLIC = ['/health', '/metrics', '/artifacts/{key}', '/assets/parts/{id}', '/api-docs/openapi.json'];

/**
 * Part model routes are mounted before the JSON body parser (PUT takes the model file itself),
 * so only they can answer without going through it.
 */
const withoutJsonParser = (p: string) => p.startsWith('/models');

/** One raw HTTP request: fetch cannot send a body with GET, and the probes need that. */
function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON (metrics, images)
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the OpenAPI document', () => {
  let doc: Doc;
  let dir: string;

  beforeAll(async () => {
    doc = (await api.call('GET', '/api-docs/openapi.json')).json;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-openapi-lint-'));
  });
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it("passes Redocly's recommended rules: 0 errors, 0 warnings, no ignore file", async () => {
    const file = path.join(dir, 'openapi.json');
    await fs.writeFile(file, JSON.stringify(doc, null, 2));
    const cli = path.join(
      path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')),
      'bin/cli.js',
    );
    // an empty temp dir as cwd: no redocly.yaml and no .redocly.lint-ignore.yaml can apply;
    // telemetry and the update check off, so CI lints without network access
    const r = await runProcess(process.execPath, [cli, 'lint', '--extends=recommended', '--format=json', file], {
      cwd: dir,
      env: childEnvironment({ REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }),
    });
    const report = JSON.parse(r.stdout) as {
      totals: { errors: number; warnings: number; ignored: number };
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    };
    const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(r.code).toBe(0);
  }, 60_000);

  it('gives every operation a unique camelCase operationId, the stable ones listed above', () => {
    const all = [...operations(doc.paths), ...operations(doc.webhooks)];
    const ids = Object.fromEntries(all.map(({ method, path: p, op }) => [`${method} ${p}`, op.operationId]));
    expect(ids).toEqual(OPERATION_IDS);
    for (const id of Object.values(ids)) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(Object.values(ids)).size).toBe(all.length);
  });

  it('says security: [] on public operations and webhooks, a bearer credential everywhere else', () => {
    for (const { method, path: p, op } of operations(doc.paths)) {
      if (PUBLIC.includes(p)) expect(op.security, `${method} ${p}`).toEqual([]);
      else expect(op.security?.[0]?.bearer, `${method} ${p}`).toBeDefined();
    }
    // the farm calls the receiver, which checks the signature instead
    for (const { op } of operations(doc.webhooks)) expect(op.security).toEqual([]);
  });

  it('names this deployment in servers: the request host, or PUBLIC_BASE_URL when set', async () => {
    expect(doc.servers).toEqual([{ url: api.url, description: 'this deployment' }]);
    const proxied = await startServer(
      { ...api.t.cfg, port: 0, publicBaseUrl: 'https://renders.example.com/farm/' },
      { db: api.t.db, log: createLogger({ logLevel: 'silent' }) },
    );
    try {
      // its url is the public one: call it where it listens
      const served = (await (await fetch(`http://127.0.0.1:${proxied.port}/api-docs/openapi.json`)).json()) as Doc;
      expect(served.servers).toEqual([{ url: 'https://renders.example.com/farm', description: 'this deployment' }]);
    } finally {
      await proxied.close();
    }
  });

  it('lists the error statuses each operation can answer with, each with the Error body', () => {
    const errorBody = (r: Operation['responses'][string]) => {
      const resolved = r.$ref ? doc.components.responses[r.$ref.replace('#/components/responses/', '')] : r;
      return resolved?.content?.['application/json']?.schema?.$ref;
    };
    for (const { method, path: p, op } of operations(doc.paths)) {
      const at = `${method} ${p}`;
      const codes = Object.keys(op.responses);
      const expected = ['500'];
      const bearer = op.security?.[0]?.bearer;
      // requireAuth: invalid ?environment= (400), credentials (401), rate limits (429), key lookups (503)
      if (bearer) expected.push('400', '401', '429', '503');
      if (bearer?.length) expected.push('403');
      if (!withoutJsonParser(p)) expected.push('400', '413', '415');
      if (op.requestBody) expected.push('400');
      if (op.parameters?.some((x) => x.in === 'path')) expected.push('404');
      expect(codes, at).toEqual(expect.arrayContaining([...new Set(expected)]));
      for (const c of codes.filter((c) => Number(c) >= 400))
        expect(errorBody(op.responses[c]), `${at} ${c}`).toBe('#/components/schemas/Error');
    }
  });

  it('documents every status the real server answers the probes with', async () => {
    const fill = (p: string, op: Operation) =>
      p.replace(/\{(\w+)\}/g, (_m, name: string) => {
        const param = op.parameters?.find((x) => x.name === name);
        if (param?.schema?.format === 'uuid') return randomUUID();
        return name === 'key' ? 'renders/no/such-artifact.webp' : 'zzzz0000';
      });
    const seen: string[] = [];
    for (const { method, path: p, op } of operations(doc.paths)) {
      // each probe stays cheap: no credentials, a customer API key, a broken JSON body, a body that is not JSON
      const probes: Array<{ headers: Record<string, string>; body?: string }> = [
        { headers: {} },
        { headers: { 'content-type': 'application/json' }, body: '{"parts": ' },
        { headers: { authorization: `Bearer ${api.key}` } },
        { headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' }, body: '{"parts": ' },
        { headers: { authorization: `Bearer ${api.key}`, 'content-type': 'text/plain' }, body: 'hello' },
      ];
      for (const probe of probes) {
        const r = await request(api.url + fill(p, op), method, probe.headers, probe.body);
        const at = `${method} ${p} (${JSON.stringify(probe)}) answered ${r.status}`;
        expect(op.responses[String(r.status)], at).toBeDefined();
        if (r.status >= 400) expect(isErrorBody(r.json), at).toBe(true);
        seen.push(String(r.status));
      }
    }
    // the probes reached past authentication and the parser, not only into 401s
    expect(new Set(seen)).toEqual(new Set(['200', '400', '401', '403', '404', '415']));
  }, 60_000);
});
