/**
 * The operator API for part models through the real app, PostgreSQL and filesystem store:
 * an admin key uploads, reads, replaces, rolls back and removes a model, and the part listings
 * show it; customer keys and session tokens get 403 and store nothing; invalid, oversized,
 * wrongly typed and unknown-part uploads are 4xx error bodies that store nothing.
 */
import { createHash } from 'node:crypto';
import { NodeIO } from '@gltf-transform/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { DEMO_BUILDS, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import type { Part } from '../../src/model/part.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { modelIO } from '../../src/part-models/model-io.js';
import { modelLimitsFrom } from '../../src/part-models/model-limits.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { isErrorBody, mintSession, useTestApi } from '../helpers/api.js';
import { dracoGlb, ktx2Glb, specGlossGlb } from '../helpers/artist-models.js';
import { distinctiveGpu, gltfWithExternalBuffer, notGltf, rgbFan, texturedGpu } from '../helpers/gltf-fixtures.js';
import { partModelRows, storedModelFiles } from '../helpers/stored-models.js';

const MAX_BYTES = 256 * 1024;
const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
const gpu = DEMO_PARTS.find((p) => p.id === glass.parts.GPU![0]) as Part<'GPU'>;
const otherGpu = DEMO_PARTS.find((p) => p.category === 'GPU' && p.id !== gpu.id) as Part<'GPU'>;
const fan = DEMO_PARTS.find((p) => p.category === 'CaseFan') as Part<'CaseFan'>;
const cpu = DEMO_PARTS.find((p) => p.category === 'CPU')!;
// GPUs no other test here gives a model
const [dracoGpu, ktxGpu, sgGpu] = DEMO_PARTS.filter(
  (p) => p.category === 'GPU' && p.id !== gpu.id && p.id !== otherGpu.id,
).slice(-3) as Part<'GPU'>[];

/** A .gltf whose buffer is a data: URI: the self-contained JSON form PUT takes as model/gltf+json. */
async function selfContainedGltf(doc: ReturnType<typeof rgbFan>['doc']): Promise<string> {
  const { json, resources } = await new NodeIO().writeJSON(doc, { basename: 'fan' });
  for (const b of json.buffers ?? []) {
    if (b.uri) b.uri = `data:application/octet-stream;base64,${Buffer.from(resources[b.uri]!).toString('base64')}`;
  }
  return JSON.stringify(json);
}

describe('models API', () => {
  const api = useTestApi({ modelMaxBytes: MAX_BYTES });
  let admin: string;
  let dataToken: string;
  let gpuGlb: Uint8Array;
  let gpuGlb2: Uint8Array;

  const put = (
    partId: string,
    body: Uint8Array | string,
    opts: { token?: string; type?: string; query?: string } = {},
  ) =>
    fetch(`${api.url}/models/${partId}${opts.query ?? ''}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${opts.token ?? admin}`,
        ...(opts.type !== '' ? { 'content-type': opts.type ?? 'model/gltf-binary' } : {}),
      },
      body: typeof body === 'string' ? body : Buffer.from(body),
    }).then(async (r) => ({ status: r.status, json: (await r.json().catch(() => undefined)) as any }));
  const as = (token: string) => (method: string, p: string) => api.call(method, p, { token });
  const asAdmin = (method: string, p: string) => api.call(method, p, { token: admin });
  const rows = () => partModelRows(api.t);
  const storedFiles = () => storedModelFiles(api.t);
  const partModel = async (id: string) => (await as(dataToken)('GET', `/part/${id}`)).json.model;

  beforeAll(async () => {
    admin = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
    dataToken = await mintSession(api, { scopes: ['data:read'], ttl_seconds: 300 });
    gpuGlb = await distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth).glb();
    // the same card, more finely cut: other bytes, same size
    gpuGlb2 = await distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth, 3).glb();
  }, 60_000);

  describe('who may call it', () => {
    it('a customer API key gets 403 naming the admin key; nothing is stored', async () => {
      const r = await put(gpu.id, gpuGlb, { token: api.key });
      expect(r.status).toBe(403);
      expect(isErrorBody(r.json)).toBe(true);
      expect(r.json.error).toBe('missing_scope');
      expect(r.json.message).toContain('models:write');
      expect(r.json.message).toContain('keys create --admin');
      for (const [m, p] of [
        ['GET', '/models'],
        ['GET', `/models/${gpu.id}`],
        ['DELETE', `/models/${gpu.id}`],
        ['POST', `/models/${gpu.id}/rollback`],
      ]) {
        expect((await as(api.key)(m, p)).status, `${m} ${p}`).toBe(403);
      }
      expect(await rows()).toBe(0);
      expect(await storedFiles()).toEqual([]);
    });

    it('a session token gets 403 admin_key_required, even one minted by an admin key; minting models:write is refused', async () => {
      const fromCustomer = await mintSession(api, { scopes: ['data:read', 'render:submit'] });
      const fromAdmin = (
        await api.call('POST', '/auth/render-session', { token: admin, body: { scopes: ['data:read'] } })
      ).json.session_token;
      for (const token of [fromCustomer, fromAdmin]) {
        const r = await put(gpu.id, gpuGlb, { token });
        expect(r.status).toBe(403);
        expect(r.json.error).toBe('admin_key_required');
        expect(r.json.message).toMatch(
          /session tokens cannot carry models:write: call this endpoint with an admin API key/,
        );
        expect((await as(token)('GET', '/models')).status).toBe(403);
      }
      const mint = await api.call('POST', '/auth/render-session', { token: admin, body: { scopes: ['models:write'] } });
      expect(mint.status).toBe(400);
      expect(mint.json.message).toContain('models:write is for admin API keys only');
      expect(await rows()).toBe(0);
      expect(await storedFiles()).toEqual([]);
    });

    it('no credentials: 401', async () => {
      const r = await fetch(`${api.url}/models/${gpu.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'model/gltf-binary' },
        body: Buffer.from(gpuGlb),
      });
      expect(r.status).toBe(401);
      expect((await api.call('GET', '/models')).status).toBe(401);
    });

    it('an admin key still has every customer scope', async () => {
      expect((await asAdmin('GET', `/part/${gpu.id}`)).status).toBe(200);
    });
  });

  describe('refused uploads store nothing', () => {
    it('bytes that are not glTF: 422 invalid_model with the validator message', async () => {
      const r = await put(gpu.id, notGltf());
      expect(r.status).toBe(422);
      expect(isErrorBody(r.json)).toBe(true);
      expect(r.json.error).toBe('invalid_model');
      expect(r.json.message).toMatch(/not valid glTF 2\.0 .*Invalid GLB magic/);
      expect(r.json.details[0].message).toMatch(/^GLB_INVALID_MAGIC/);
    });

    it('over the byte limit: 413 model_too_large, before the body is read', async () => {
      const r = await put(gpu.id, new Uint8Array(MAX_BYTES + 1));
      expect(r.status).toBe(413);
      expect(isErrorBody(r.json)).toBe(true);
      expect(r.json.error).toBe('model_too_large');
      expect(r.json.message).toContain('RENDER_FARM_MODEL_MAX_BYTES');
    });

    it('over the byte limit without a Content-Length (chunked): 413 model_too_large', async () => {
      const big = new Uint8Array(MAX_BYTES + 1024);
      const stream = new ReadableStream({
        start(c) {
          c.enqueue(big);
          c.close();
        },
      });
      const r = await fetch(`${api.url}/models/${gpu.id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'model/gltf-binary' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(r.status).toBe(413);
      expect(((await r.json()) as { error: string }).error).toBe('model_too_large');
    });

    it('an unknown or malformed part ID: 404 unknown_part', async () => {
      for (const id of ['zzzz9999', 'NOT-AN-ID']) {
        const r = await put(id, gpuGlb);
        expect(r.status, id).toBe(404);
        expect(r.json.error).toBe('unknown_part');
        expect(r.json.message).toContain(id);
        expect((await asAdmin('GET', `/models/${id}`)).status).toBe(404);
      }
    });

    it('a part of a category that takes no model: 422 naming the categories', async () => {
      const r = await put(cpu.id, gpuGlb);
      expect(r.status).toBe(422);
      expect(r.json.message).toContain('is a CPU: models are taken for');
    });

    it('a model 10x too large: 422 with measured vs expected size', async () => {
      const r = await put(gpu.id, await distinctiveGpu(gpu.specs.lengthMm * 10, gpu.specs.slotWidth * 10).glb());
      expect(r.status).toBe(422);
      expect(r.json.message).toMatch(/off by more than 2x/);
    });

    it('a .gltf with an external buffer: 422 (an upload must be self-contained)', async () => {
      const { json } = await gltfWithExternalBuffer([0.126, gpu.specs.slotWidth * 0.02032, gpu.specs.lengthMm / 1000]);
      const r = await put(gpu.id, json, { type: 'model/gltf+json' });
      expect(r.status).toBe(422);
      expect(r.json.error).toBe('invalid_model');
      expect(r.json.message).toMatch(/self-contained/);
    });

    it('a body of another type: 415; no body: 400; bad query: 400', async () => {
      const text = await put(gpu.id, 'hello', { type: 'text/plain' });
      expect(text.status).toBe(415);
      expect(text.json.message).toContain('model/gltf-binary');
      const json = await put(gpu.id, '{}', { type: 'application/json' });
      expect(json.status).toBe(415);
      const none = await fetch(`${api.url}/models/${gpu.id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(none.status).toBe(400);
      expect(((await none.json()) as { error: string }).error).toBe('missing_body');
      expect((await put(gpu.id, gpuGlb, { query: '?fit=maybe' })).status).toBe(400);
      expect((await put(gpu.id, gpuGlb, { query: '?name=a/b.glb' })).status).toBe(400);
    });

    it('after all of that, nothing was stored', async () => {
      expect(await rows()).toBe(0);
      expect(await storedFiles()).toEqual([]);
      expect(await partModel(gpu.id)).toBeNull();
    });
  });

  it('the OpenAPI document has the model routes, the admin scope, the configured limit and the `model` field', async () => {
    const doc = (await api.call('GET', '/api-docs/openapi.json')).json;
    const putOp = doc.paths['/models/{partId}'].put;
    expect(putOp.security).toEqual([{ bearer: ['models:write'] }]);
    expect(Object.keys(putOp.requestBody.content).sort()).toEqual([
      'application/octet-stream',
      'application/zip',
      'model/gltf+json',
      'model/gltf-binary',
    ]);
    expect(putOp.responses['413'].description).toContain('256 KiB');
    expect(putOp.description).toContain('keys create --admin');
    expect(Object.keys(putOp.responses)).toEqual(
      expect.arrayContaining(['200', '201', '403', '404', '413', '415', '422']),
    );
    expect(doc.paths['/models/{partId}'].delete.responses['204']).toBeDefined();
    expect(doc.paths['/models/{partId}/rollback'].post.responses['409']).toBeDefined();
    expect(doc.paths['/models'].get.parameters[0].schema.enum).toContain('GPU');
    expect(
      doc.paths['/part/{id}'].get.responses['200'].content['application/json'].schema.properties.model,
    ).toBeDefined();
    const parts = doc.paths['/parts'].post.responses['200'].content['application/json'].schema;
    expect(parts.properties.parts.items.required).toContain('model');
    expect(doc.info.description).toContain('models:write');
  });

  describe('the model lifecycle', () => {
    let first: any;
    let second: any;

    it('PUT: 201 with the stored model; its URL serves the prepared GLB', async () => {
      const r = await put(gpu.id, gpuGlb, { query: '?name=kestrel-4070.glb', type: 'application/octet-stream' });
      expect(r.status).toBe(201);
      first = r.json;
      expect(first).toMatchObject({
        part_id: gpu.id,
        original_name: 'kestrel-4070.glb',
        original_bytes: gpuGlb.byteLength,
        scale: 1,
      });
      expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(first.triangles).toBeGreaterThan(0);
      expect(first.original_triangles).toBeGreaterThanOrEqual(first.triangles);
      expect(Array.isArray(first.warnings)).toBe(true);
      expect(first.created_by).toContain('ops');
      expect(Date.parse(first.created_at)).toBeGreaterThan(0);
      expect(first.url).toBe(`${api.url}/artifacts/models/${first.sha256}.glb`);
      const glb = await fetch(first.url);
      expect(glb.status).toBe(200);
      expect(glb.headers.get('content-type')).toBe('model/gltf-binary');
      const bytes = new Uint8Array(await glb.arrayBuffer());
      expect(bytes.byteLength).toBe(first.bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(first.sha256);
      expect(await storedFiles()).toEqual([`${first.sha256}.glb`]);
    });

    it('the same bytes again: 200, no new version', async () => {
      const r = await put(gpu.id, gpuGlb);
      expect(r.status).toBe(200);
      expect(r.json.sha256).toBe(first.sha256);
      expect(await rows()).toBe(1);
    });

    it('GET /models/:partId shows it; GET /models lists it (by category)', async () => {
      const r = await asAdmin('GET', `/models/${gpu.id}`);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        part_id: gpu.id,
        category: 'GPU',
        current: { sha256: first.sha256, url: first.url },
      });
      expect(r.json.history).toHaveLength(1);
      expect(r.json.history[0]).toMatchObject({ sha256: first.sha256, current: true, retired_at: null });

      const list = await asAdmin('GET', '/models');
      expect(list.status).toBe(200);
      expect(list.json.models.map((m: any) => [m.part_id, m.sha256, m.category, m.name])).toEqual([
        [gpu.id, first.sha256, 'GPU', gpu.name],
      ]);
      expect((await asAdmin('GET', '/models?category=CaseFan')).json.models).toEqual([]);
      const bad = await asAdmin('GET', '/models?category=CPU');
      expect(bad.status).toBe(400);
      expect(bad.json.message).toContain('categories that take models');

      const none = await asAdmin('GET', `/models/${otherGpu.id}`);
      expect(none.status).toBe(200);
      expect(none.json).toMatchObject({ current: null, history: [] });
    });

    it('part listings carry `model`: /part/:id, /parts, /available-parts; other parts null, seed fields unchanged', async () => {
      const want = { sha256: first.sha256, triangles: first.triangles, updated_at: first.created_at };
      const one = await as(dataToken)('GET', `/part/${gpu.id}`);
      expect(one.status).toBe(200);
      expect(one.json).toEqual({
        id: gpu.id,
        name: gpu.name,
        image: `${api.url}/assets/parts/${gpu.id}`,
        category: 'GPU',
        model: want,
      });
      expect(await partModel(otherGpu.id)).toBeNull();
      expect((await as(dataToken)('GET', '/part/zzzz9999')).status).toBe(404);

      const parts = await api.call('POST', '/parts', { token: dataToken, body: { ids: [otherGpu.id, gpu.id] } });
      expect(parts.json.parts.map((p: any) => [p.id, p.model])).toEqual([
        [otherGpu.id, null],
        [gpu.id, want],
      ]);
      expect(Object.keys(parts.json.parts[1]).sort()).toEqual(['category', 'id', 'image', 'model', 'name']);

      const page = await as(dataToken)('GET', '/available-parts?category=GPU&limit=100');
      const items = page.json.data.GPU as any[];
      expect(items.find((p) => p.id === gpu.id).model).toEqual(want);
      expect(items.filter((p) => p.model !== null)).toHaveLength(1);
    });

    it('a replacement is a new version; rollback restores the previous one', async () => {
      const r = await put(gpu.id, gpuGlb2);
      expect(r.status).toBe(201);
      second = r.json;
      expect(second.sha256).not.toBe(first.sha256);
      expect((await partModel(gpu.id)).sha256).toBe(second.sha256);
      const shown = await asAdmin('GET', `/models/${gpu.id}`);
      expect(shown.json.history.map((h: any) => [h.sha256, h.current])).toEqual([
        [second.sha256, true],
        [first.sha256, false],
      ]);

      const back = await asAdmin('POST', `/models/${gpu.id}/rollback`);
      expect(back.status).toBe(200);
      expect(back.json.sha256).toBe(first.sha256);
      expect((await partModel(gpu.id)).sha256).toBe(first.sha256);
      const again = await asAdmin('POST', `/models/${gpu.id}/rollback`);
      expect(again.status).toBe(409);
      expect(again.json.error).toBe('no_previous_model');
      expect((await asAdmin('POST', `/models/${otherGpu.id}/rollback`)).status).toBe(404);
    });

    it('DELETE: 204, the part renders procedurally again; a second DELETE is 404', async () => {
      const r = await asAdmin('DELETE', `/models/${gpu.id}`);
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      expect(await partModel(gpu.id)).toBeNull();
      expect((await asAdmin('GET', `/models/${gpu.id}`)).json.current).toBeNull();
      const again = await asAdmin('DELETE', `/models/${gpu.id}`);
      expect(again.status).toBe(404);
      expect(again.json.error).toBe('no_model');
    });

    it('a self-contained .gltf as model/gltf+json; ?fit=true scales a model of the wrong size', async () => {
      const gltf = await put(fan.id, await selfContainedGltf(rgbFan(fan.specs.sizeMm).doc), {
        type: 'model/gltf+json',
      });
      expect(gltf.status).toBe(201);
      expect(gltf.json).toMatchObject({ part_id: fan.id, original_name: `${fan.id}.gltf` });
      expect((await put(fan.id, '{}', { type: 'model/gltf+json', query: '?name=fan.glb' })).status).toBe(400);

      // 10x on every axis: the card's proportions, in no known unit (a card 10x longer only is not a card: refused whatever fit says)
      const tenfold = distinctiveGpu(otherGpu.specs.lengthMm, otherGpu.specs.slotWidth);
      tenfold.root.setScale([10, 10, 10]);
      const big = await tenfold.glb();
      const fitted = await put(otherGpu.id, big, { query: '?fit=true' });
      expect(fitted.status).toBe(201);
      expect(fitted.json.scale).toBeLessThan(0.5);
      expect(fitted.json.warnings.join('\n')).toMatch(/scaled by/);
    });
  });
  describe('files artists export (Draco, KTX2/Basis, spec-gloss)', () => {
    it('PUT takes each: 201, the stored GLB carries none of them, the same sha256 as preparation in-process', async () => {
      const files: Array<[Part<'GPU'>, string, Uint8Array]> = [
        [dracoGpu!, 'draco.glb', await dracoGlb(distinctiveGpu(dracoGpu!.specs.lengthMm, dracoGpu!.specs.slotWidth))],
        [ktxGpu!, 'ktx2.glb', await ktx2Glb(await texturedGpu(64, ktxGpu!.specs.lengthMm, ktxGpu!.specs.slotWidth))],
        [sgGpu!, 'specgloss.glb', await specGlossGlb(distinctiveGpu(sgGpu!.specs.lengthMm, sgGpu!.specs.slotWidth))],
      ];
      for (const [part, name, bytes] of files) {
        const r = await put(part.id, bytes, { query: `?name=${name}` });
        expect(r.status, `${name}: ${JSON.stringify(r.json)}`).toBe(201);
        const stored = new Uint8Array(await (await fetch(r.json.url)).arrayBuffer());
        const used = (await (await modelIO()).readBinary(stored))
          .getRoot()
          .listExtensionsUsed()
          .map((e) => e.extensionName);
        expect(used, name).not.toEqual(expect.arrayContaining(['KHR_draco_mesh_compression']));
        expect(used, name).not.toContain('KHR_texture_basisu');
        expect(used, name).not.toContain('KHR_materials_pbrSpecularGlossiness');
        const local = await prepareModel(
          modelInputFromBytes(name, bytes),
          { id: part.id, category: part.category, specs: part.specs },
          { limits: modelLimitsFrom(api.t.cfg) },
        );
        expect(r.json.sha256, name).toBe(local.sha256);
      }
    });

    it('damaged Draco data: 422 invalid_model naming the damage, no JavaScript error text, nothing stored', async () => {
      const glb = await dracoGlb(distinctiveGpu(dracoGpu!.specs.lengthMm, dracoGpu!.specs.slotWidth));
      const damaged = new Uint8Array(glb);
      const binAt = 20 + new DataView(damaged.buffer).getUint32(12, true);
      damaged.fill(0, binAt + 8 + 16);
      const before = await rows();
      const r = await put(dracoGpu!.id, damaged);
      expect(r.status).toBe(422);
      expect(isErrorBody(r.json)).toBe(true);
      expect(r.json.error).toBe('invalid_model');
      expect(r.json.message).toMatch(/export it again/);
      expect(r.json.message).not.toMatch(/Cannot read properties|undefined|TypeError|RangeError/);
      expect(await rows()).toBe(before);
    });
  });
});
