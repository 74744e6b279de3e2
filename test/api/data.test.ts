import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { isErrorBody, useTestApi } from '../helpers/api.js';

describe('data endpoints', () => {
  const api = useTestApi();
  let token: string;
  let gpuTotal: number;
  const get = (path: string) => api.call('GET', path, { token });
  const post = (path: string, body: unknown) => api.call('POST', path, { token, body });

  beforeAll(async () => {
    const r = await api.call('POST', '/auth/render-session', {
      token: api.key,
      body: { scopes: ['data:read', 'render:submit', 'render:status'], ttl_seconds: 300 },
    });
    token = r.json.session_token;
    gpuTotal = (await get('/available-parts?category=GPU&limit=0')).json.pagination.total;
  });

  describe('GET /available-parts', () => {
    it('lists a category with the spec shape and defaults', async () => {
      const r = await get('/available-parts?category=GPU');
      expect(r.status).toBe(200);
      expect(Object.keys(r.json)).toEqual(['data', 'category', 'pagination']);
      expect(r.json.category).toBe('GPU');
      const items = r.json.data.GPU;
      expect(items.length).toBe(Math.min(20, gpuTotal));
      for (const p of items) {
        // the seed's fields, plus `model` (docs/part-models.md; null: no part model, see test/api/models-api.test.ts)
        expect(Object.keys(p).sort()).toEqual(['id', 'image', 'model', 'name']);
        expect(p.model).toBeNull();
        expect(p.id).toMatch(/^[a-z0-9]+$/);
        expect(p.image).toBe(`${api.url}/assets/parts/${p.id}`);
      }
      expect(r.json.pagination).toEqual({
        total: gpuTotal,
        limit: 20,
        skip: 0,
        hasNext: gpuTotal > 20,
        hasPrev: false,
      });
    });

    it('pages with limit and skip, stable order, hasNext/hasPrev', async () => {
      const all = (await get(`/available-parts?category=GPU&limit=100`)).json.data.GPU.map((p: { id: string }) => p.id);
      expect(all.length).toBe(Math.min(100, gpuTotal));
      const page = await get('/available-parts?category=GPU&limit=2&skip=1');
      expect(page.json.data.GPU.map((p: { id: string }) => p.id)).toEqual(all.slice(1, 3));
      expect(page.json.pagination).toMatchObject({ limit: 2, skip: 1, hasPrev: true, hasNext: gpuTotal > 3 });
      const last = await get(`/available-parts?category=GPU&limit=2&skip=${gpuTotal - 2}`);
      expect(last.json.pagination.hasNext).toBe(false);
      const beyond = await get(`/available-parts?category=GPU&skip=${gpuTotal + 5}`);
      expect(beyond.status).toBe(200);
      expect(beyond.json.data.GPU).toEqual([]);
      expect(beyond.json.pagination).toMatchObject({ total: gpuTotal, hasNext: false, hasPrev: true });
    });

    it('limit=0 returns only the total', async () => {
      const r = await get('/available-parts?category=GPU&limit=0');
      expect(r.status).toBe(200);
      expect(r.json.data.GPU).toEqual([]);
      expect(r.json.pagination).toMatchObject({ total: gpuTotal, limit: 0, hasNext: gpuTotal > 0 });
    });

    it.each([
      ['limit=101', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=1&limit=2', 'limit'],
      ['skip=-1', 'skip'],
      ['skip=x', 'skip'],
    ])('rejects %s with 400 naming the field', async (q, field) => {
      const r = await get(`/available-parts?category=GPU&${q}`);
      expect(r.status).toBe(400);
      expect(isErrorBody(r.json)).toBe(true);
      expect(r.json.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('needs a known category', async () => {
      const missing = await get('/available-parts');
      expect(missing.status).toBe(400);
      expect(missing.json.message).toContain('category is required');
      const unknown = await get('/available-parts?category=NotACategory');
      expect(unknown.status).toBe(400);
      expect(unknown.json.message).toContain('NotACategory');
    });

    it('serves every category of the demo catalog', async () => {
      for (const c of ['PCCase', 'Motherboard', 'CPU', 'CPUCooler', 'GPU', 'RAM', 'Storage', 'PSU', 'CaseFan']) {
        const r = await get(`/available-parts?category=${c}`);
        expect(r.status, c).toBe(200);
        expect(r.json.pagination.total, c).toBeGreaterThan(0);
      }
    });
  });

  describe('POST /parts', () => {
    it('returns parts with category, in request order, unknown IDs left out', async () => {
      const gpus = (await get('/available-parts?category=GPU&limit=2')).json.data.GPU;
      const cpu = (await get('/available-parts?category=CPU&limit=1')).json.data.CPU[0];
      const r = await post('/parts', { ids: [cpu.id, 'nosuchpart', gpus[1].id, gpus[0].id, cpu.id] });
      expect(r.status).toBe(200);
      expect(r.json.parts).toEqual([
        { id: cpu.id, name: cpu.name, image: cpu.image, category: 'CPU', model: null },
        { ...gpus[1], category: 'GPU' },
        { ...gpus[0], category: 'GPU' },
      ]);
    });

    it('empty ids -> {"parts": []}', async () => {
      const r = await post('/parts', { ids: [] });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ parts: [] });
    });

    it('accepts 100 ids and refuses 101', async () => {
      const ids = Array.from({ length: 100 }, (_, i) => `p${i}`);
      expect((await post('/parts', { ids })).json).toEqual({ parts: [] });
      const r = await post('/parts', { ids: [...ids, 'p100'] });
      expect(r.status).toBe(400);
      expect(r.json.message).toContain('100');
    });

    it.each([[{}], [{ ids: 'x' }], [{ ids: [1, 2] }], [{ ids: [], extra: 1 }], [[1]]])(
      'rejects %j with 400',
      async (body) => {
        const r = await post('/parts', body);
        expect(r.status).toBe(400);
        expect(isErrorBody(r.json)).toBe(true);
      },
    );

    it('names the unknown field', async () => {
      const r = await post('/parts', { ids: [], idz: [] });
      expect(r.json.details).toContainEqual({ field: 'idz', message: 'unknown field' });
    });

    it('a non-JSON body gets a clear 415', async () => {
      const r = await api.call('POST', '/parts', { token, raw: 'ids=1', headers: { 'content-type': 'text/plain' } });
      expect(r.status).toBe(415);
      expect(isErrorBody(r.json)).toBe(true);
      expect(r.json.message).toContain('application/json');
    });
  });

  describe('GET /build/:shareCode', () => {
    it('returns a demo build with partDetails', async () => {
      const demo = DEMO_BUILDS.find((b) => b.interactiveState)!;
      const r = await get(`/build/${demo.shareCode}`);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        shareCode: demo.shareCode,
        name: demo.name,
        parts: demo.parts,
        hasInteractiveModel: true,
      });
      expect(typeof r.json.description).toBe('string');
      for (const [category, list] of Object.entries(
        r.json.partDetails as Record<string, { category: string; image: string }[]>,
      )) {
        expect(list.length).toBeGreaterThan(0);
        for (const d of list) {
          expect(d.category).toBe(category);
          expect(d.image).toMatch(/\/assets\/parts\//);
        }
      }
      const plain = DEMO_BUILDS.find((b) => !b.interactiveState)!;
      expect((await get(`/build/${plain.shareCode}`)).json.hasInteractiveModel).toBe(false);
    });

    it('lists only catalog parts in partDetails', async () => {
      const gpu = (await get('/available-parts?category=GPU&limit=1')).json.data.GPU[0];
      await api.t.db.db
        .insertInto('builds')
        .values({ share_code: 'GHOST-1', name: 'ghost', parts: JSON.stringify({ GPU: [gpu.id, 'gone00000'] }) })
        .execute();
      const r = await get('/build/GHOST-1');
      expect(r.json.parts.GPU).toEqual([gpu.id, 'gone00000']);
      expect(r.json.partDetails.GPU.map((p: { id: string }) => p.id)).toEqual([gpu.id]);
    });

    it('unknown share code -> 404', async () => {
      const r = await get('/build/no-such-share-code-xyz');
      expect(r.status).toBe(404);
      expect(r.json.error).toBe('build_not_found');
    });
  });

  describe('part images', () => {
    it('serve an image without auth, 404 for unknown parts', async () => {
      const gpu = (await get('/available-parts?category=GPU&limit=1')).json.data.GPU[0];
      const img = await fetch(gpu.image);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toMatch(/^image\//);
      const svg = await img.text();
      expect(svg).toContain('<svg');
      const again = await fetch(gpu.image, { headers: { 'if-none-match': img.headers.get('etag')! } });
      expect(again.status).toBe(304);
      expect((await fetch(`${api.url}/assets/parts/nosuchpart`)).status).toBe(404);
    });
  });
});
