/**
 * The model upload fuzzed as /render-build is: every hostile class (test/helpers/hostile-models.ts:
 * truncated files, lying headers, huge declared counts, decompression-bomb images, cycles, deep and
 * wide graphs, NaN/Infinity positions, 10,000 materials, a JSON nesting bomb) sent to
 * `PUT /models/:partId` through the real app, PostgreSQL and store. Each answers a 4xx error body
 * in words, the service answers the next request, and nothing is stored; a preparation killed
 * mid-way answers invalid_model and stores nothing, and a valid upload works right after.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { DEMO_BUILDS, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import type { Part } from '../../src/model/part.js';
import { isErrorBody, useTestApi } from '../helpers/api.js';
import { distinctiveGpu, denseBox } from '../helpers/gltf-fixtures.js';
import { hostileModels } from '../helpers/hostile-models.js';
import { processTree } from '../helpers/process-tree.js';
import { waitFor } from '../helpers/wait-for.js';
import { partModelRows, storedModelFiles } from '../helpers/stored-models.js';

const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
const gpu = DEMO_PARTS.find((p) => p.id === glass.parts.GPU![0]) as Part<'GPU'>;

describe('model upload fuzz', () => {
  const api = useTestApi({ modelMaxTriangles: 1000 });
  let admin: string;

  const put = (body: Uint8Array) =>
    fetch(`${api.url}/models/${gpu.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'model/gltf-binary' },
      body: Buffer.from(body),
    }).then(async (r) => ({
      status: r.status,
      json: (await r.json().catch(() => undefined)) as { error: string; message: string },
    }));
  const rows = () => partModelRows(api.t);
  const storedFiles = () => storedModelFiles(api.t);

  beforeAll(async () => {
    admin = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
  });

  it('answers each hostile class with a 4xx in words, stays up, and stores nothing', async () => {
    const models = await hostileModels();
    expect(models.length).toBeGreaterThanOrEqual(20);
    for (const { name, bytes } of models) {
      const r = await put(bytes);
      expect(r.status, `${name}: ${JSON.stringify(r.json)}`).toBeGreaterThanOrEqual(400);
      expect(r.status, name).toBeLessThan(500);
      expect(isErrorBody(r.json), name).toBe(true);
      expect(
        ['invalid_model', 'model_too_large', 'model_too_complex', 'missing_body'],
        `${name}: ${r.json.error}`,
      ).toContain(r.json.error);
      expect(r.json.message, name).not.toMatch(/TypeError|RangeError|Cannot read prop|Maximum call stack/);
      // the service answers the next request
      expect((await api.call('GET', '/health')).status, `after ${name}`).toBe(200);
    }
    expect(await rows()).toBe(0);
    expect(await storedFiles()).toEqual([]);
  }, 180_000);

  it('a preparation killed mid-way answers invalid_model and stores nothing; the next upload works', async () => {
    // ~1.5M triangles simplified to the 1,000 budget: seconds of work in the child
    const dense = await denseBox(1_500_000, [0.126, 0.06, 0.305]).glb();
    const pending = put(dense);
    const child = await waitFor(
      'the preparation child to be busy',
      () => processTree(process.pid).find((p) => p.args.includes('prepare-child') && p.cpuSeconds > 0.5),
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    process.kill(child.pid, 'SIGKILL');
    const r = await pending;
    expect(r.status).toBe(422);
    expect(r.json.error).toBe('invalid_model');
    expect(r.json.message).toMatch(/preparing the model was killed \(SIGKILL\) before it finished/);
    expect(await rows()).toBe(0);
    expect(await storedFiles()).toEqual([]);

    const ok = await put(await distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth).glb());
    expect(ok.status).toBeLessThan(300);
    expect(await rows()).toBe(1);
    expect(await storedFiles()).toHaveLength(1);
  }, 120_000);
});
