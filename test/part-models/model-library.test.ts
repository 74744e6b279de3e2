/**
 * The model library on a real PostgreSQL and a filesystem artifact store: add, list, show,
 * replace (history kept), rollback, rm; an unknown part and an invalid file store nothing; an
 * import of a folder adds the good file and reports the bad one. And what models change: the
 * parts query returns them (build.models), the render cache key changes with a model and stays
 * today's key without one, the worker's key check names a changed model, and a pregenerated
 * entry drawn before a model was added is stale.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import { seedDemoCatalog } from '../../src/catalog/seed-demo.js';
import { resolveBuild } from '../../src/catalog/resolve-build.js';
import { cacheKey, canonicalJson } from '../../src/jobs/cache-key.js';
import { PermanentRenderError } from '../../src/jobs/errors.js';
import { checkCacheKey } from '../../src/jobs/key-check.js';
import type { Part, PartIdMap } from '../../src/model/part.js';
import { normaliseRequest } from '../../src/model/render-request.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { ModelRejectedError } from '../../src/part-models/model-errors.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import {
  addModel,
  currentModels,
  importModels,
  listModels,
  modelBytes,
  NoModelError,
  NoPreviousModelError,
  removeModel,
  rollbackModel,
  showModel,
  UnknownModelPartError,
  type AddModelOptions,
} from '../../src/part-models/model-library.js';
import { modelLimitsFrom } from '../../src/part-models/model-limits.js';
import { listCache } from '../../src/pregen/cache-admin.js';
import { planPregen } from '../../src/pregen/plan.js';
import { publishFile } from '../../src/pregen/publish.js';
import type { ArtifactStore } from '../../src/storage/artifact-store.js';
import { modelArtifactKey } from '../../src/storage/artifact-key.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { useTestDb } from '../helpers/db.js';
import { distinctiveGpu, notGltf, rgbFan } from '../helpers/gltf-fixtures.js';
import { partModelRows, storedModelFiles } from '../helpers/stored-models.js';

const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
const gpu = DEMO_PARTS.find((p) => p.id === glass.parts.GPU![0]) as Part<'GPU'>;
const fan = DEMO_PARTS.find((p) => p.category === 'CaseFan') as Part<'CaseFan'>;

/** The key as cache-key.ts computed it before part models: what existing renders are stored under. */
function keyBeforeModels(
  req: ReturnType<typeof normaliseRequest>,
  partVersions: Record<string, number>,
  renderer: string,
): string {
  const versions = Object.fromEntries(Object.entries(partVersions).sort(([a], [b]) => (a < b ? -1 : 1)));
  return createHash('sha256').update(canonicalJson({ req, versions, renderer })).digest('hex');
}

describe('model library', () => {
  const t = useTestDb();
  let store: ArtifactStore;
  let opts: AddModelOptions;
  let tmp: string;
  let gpuGlb: Uint8Array;
  let gpuGlb2: Uint8Array;

  /** Every model object in the store's models/ folder. */
  const storedModels = async () => (await storedModelFiles(t)).filter((f) => f.endsWith('.glb'));
  const rowCount = () => partModelRows(t);

  beforeAll(async () => {
    await seedDemoCatalog(t.db);
    store = await openArtifactStore(t.cfg);
    opts = { limits: modelLimitsFrom(t.cfg), who: 'test' };
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-model-lib-'));
    gpuGlb = await distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth).glb();
    // the same card, more finely cut: other bytes, same size
    gpuGlb2 = await distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth, 3).glb();
  }, 60_000);
  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('refuses an unknown part with 404 unknown_part and an invalid file with a clear error; nothing is stored', async () => {
    const unknown = await addModel(t.db, store, 'no-such-part', modelInputFromBytes('gpu.glb', gpuGlb), opts).catch(
      (e: unknown) => e,
    );
    expect(unknown).toBeInstanceOf(UnknownModelPartError);
    expect(unknown).toMatchObject({ status: 404, code: 'unknown_part', exitCode: 2 });
    expect((unknown as Error).message).toContain('no-such-part');

    const invalid = await addModel(t.db, store, gpu.id, modelInputFromBytes('gpu.glb', notGltf()), opts).catch(
      (e: unknown) => e,
    );
    expect(invalid).toBeInstanceOf(ModelRejectedError);
    expect(invalid).toMatchObject({ code: 'invalid_model' });

    expect(await rowCount()).toBe(0);
    expect(await storedModels()).toEqual([]);
    expect(await currentModels(t.db, [gpu.id])).toEqual({});
  });

  it('adds a model: the GLB stored once under models/<sha256>.glb, a row, listed and shown; the same bytes again change nothing', async () => {
    const added = await addModel(t.db, store, gpu.id, modelInputFromBytes('my-gpu.glb', gpuGlb), opts);
    expect(added.unchanged).toBe(false);
    expect(added.part).toEqual({ id: gpu.id, name: gpu.name, category: 'GPU' });
    expect(added.model).toMatchObject({
      partId: gpu.id,
      sha256: added.prepared.sha256,
      originalName: 'my-gpu.glb',
      createdBy: 'test',
      retiredAt: null,
    });
    expect(added.model.triangles).toBeGreaterThan(0);
    expect(added.model.preparedBytes).toBe(added.prepared.preparedBytes);

    const meta = await store.stat(modelArtifactKey(added.prepared.sha256));
    expect(meta).toMatchObject({ contentType: 'model/gltf-binary', size: added.prepared.preparedBytes });
    const bytes = await modelBytes(store, added.prepared.sha256);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(added.prepared.sha256);

    const again = await addModel(t.db, store, gpu.id, modelInputFromBytes('my-gpu.glb', gpuGlb), opts);
    expect(again.unchanged).toBe(true);
    expect(await rowCount()).toBe(1);

    const list = await listModels(t.db);
    expect(list.map((i) => [i.part.id, i.model.sha256])).toEqual([[gpu.id, added.prepared.sha256]]);
    expect(await listModels(t.db, { category: 'CaseFan' })).toEqual([]);
    await expect(listModels(t.db, { category: 'Toaster' })).rejects.toMatchObject({ code: 'invalid_category' });
    const shown = await showModel(t.db, gpu.id);
    expect(shown.current?.sha256).toBe(added.prepared.sha256);
    expect(shown.history).toHaveLength(1);
    expect(await currentModels(t.db, [gpu.id, fan.id])).toEqual({ [gpu.id]: added.prepared.sha256 });
  });

  it('replacing keeps the previous version; rollback restores it; rm retires every version', async () => {
    const first = (await showModel(t.db, gpu.id)).current!;
    const second = await addModel(t.db, store, gpu.id, modelInputFromBytes('my-gpu-v2.glb', gpuGlb2), opts);
    expect(second.model.sha256).not.toBe(first.sha256);
    expect(await storedModels()).toEqual([first.sha256, second.model.sha256].sort().map((s) => `${s}.glb`));
    let shown = await showModel(t.db, gpu.id);
    expect(shown.current?.sha256).toBe(second.model.sha256);
    expect(shown.history.map((h) => h.sha256)).toEqual([second.model.sha256, first.sha256]);

    const back = await rollbackModel(t.db, gpu.id);
    expect(back.retired.sha256).toBe(second.model.sha256);
    expect(back.current.sha256).toBe(first.sha256);
    expect(await currentModels(t.db, [gpu.id])).toEqual({ [gpu.id]: first.sha256 });
    await expect(rollbackModel(t.db, gpu.id)).rejects.toBeInstanceOf(NoPreviousModelError);

    const removed = await removeModel(t.db, gpu.id);
    expect(removed.map((r) => r.sha256)).toEqual([first.sha256]);
    shown = await showModel(t.db, gpu.id);
    expect(shown.current).toBeNull();
    expect(shown.history).toHaveLength(2);
    expect(shown.history.every((h) => h.retiredAt !== null)).toBe(true);
    expect(await listModels(t.db)).toEqual([]);
    await expect(removeModel(t.db, gpu.id)).rejects.toBeInstanceOf(NoModelError);
    await expect(rollbackModel(t.db, gpu.id)).rejects.toMatchObject({ code: 'no_model', status: 404 });
    await expect(showModel(t.db, 'no-such-part')).rejects.toMatchObject({ code: 'unknown_part' });
  });

  it('imports a folder: the good file is added, the bad one reported, neither stops the other', async () => {
    const dir = path.join(tmp, 'import');
    await fs.mkdir(dir);
    await fs.writeFile(path.join(dir, `${fan.id}.glb`), await rgbFan(fan.specs.sizeMm).glb());
    await fs.writeFile(path.join(dir, `${gpu.id}.glb`), notGltf());
    await fs.writeFile(path.join(dir, 'README.txt'), 'not a model');
    const items = await importModels(t.db, store, dir, opts);
    expect(items.map((i) => [i.part, i.ok]).sort()).toEqual(
      [
        [fan.id, true],
        [gpu.id, false],
      ].sort(),
    );
    const bad = items.find((i) => !i.ok)!;
    expect(bad.ok === false && bad.error.code).toBe('invalid_model');
    expect(await currentModels(t.db, [fan.id, gpu.id])).toEqual({ [fan.id]: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // a manifest maps files to parts; an unknown part is that item's error
    const manifest = path.join(tmp, 'manifest.json');
    await fs.writeFile(manifest, JSON.stringify({ models: [{ part: 'nope', file: `import/${fan.id}.glb` }] }));
    const viaManifest = await importModels(t.db, store, manifest, opts);
    expect(viaManifest).toMatchObject([{ part: 'nope', ok: false, error: { code: 'unknown_part' } }]);
    await fs.writeFile(manifest, JSON.stringify({ parts: [] }));
    await expect(importModels(t.db, store, manifest, opts)).rejects.toMatchObject({ code: 'invalid_manifest' });
    await removeModel(t.db, fan.id);
  });

  it('the cache key changes with a model and is byte-identical to the pre-models key without one; the worker names a changed model', async () => {
    const parts: PartIdMap = { PCCase: glass.parts.PCCase!, GPU: glass.parts.GPU! };
    const req = normaliseRequest(parts, null, resolveRenderOptions({}));
    const without = await resolveBuild(t.db, parts);
    expect(without.build).not.toHaveProperty('models');
    const plainKey = cacheKey(req, without.versions, 'r1', without.build.models);
    expect(plainKey).toBe(keyBeforeModels(req, without.versions, 'r1'));
    expect(cacheKey(req, without.versions, 'r1', {})).toBe(plainKey);

    const added = await addModel(t.db, store, gpu.id, modelInputFromBytes('gpu.glb', gpuGlb), opts);
    const withModel = await resolveBuild(t.db, parts);
    expect(withModel.build.models).toEqual({ [gpu.id]: added.model.sha256 });
    const modelKey = cacheKey(req, withModel.versions, 'r1', withModel.build.models);
    expect(modelKey).not.toBe(plainKey);

    // a render keyed before the model was added: the worker refuses it for good, naming the part
    const row = { cache_key: plainKey, part_versions: without.versions, renderer_version: 'r1', models: null };
    expect(() => checkCacheKey(row, req, withModel.versions, 'r1', withModel.build.models)).toThrow(
      PermanentRenderError,
    );
    expect(() => checkCacheKey(row, req, withModel.versions, 'r1', withModel.build.models)).toThrow(
      new RegExp(`part models changed.*${gpu.id} none -> ${added.model.sha256.slice(0, 8)}`),
    );
    expect(() =>
      checkCacheKey(
        { ...row, cache_key: modelKey, models: withModel.build.models! },
        req,
        withModel.versions,
        'r1',
        withModel.build.models,
      ),
    ).not.toThrow();
    await removeModel(t.db, gpu.id);
  });

  it('a pregenerated entry drawn before a visible part got a model is stale: ls --stale lists it, --stale plans it again', async () => {
    const sources = [
      { label: 'DEMO-GLASS', source: 'build:DEMO-GLASS', parts: glass.parts as Record<string, string[]> },
    ];
    const variants = {
      base: {},
      formats: ['sprite' as const],
      profiles: ['fast' as const],
      sizes: [{ width: 256, height: 256 }],
      rendererVersion: 'r1',
    };
    const [item] = await planPregen(t.db, sources, variants);
    expect(item!.action).toBe('render');
    const file = path.join(tmp, 'sprite.webp');
    await fs.writeFile(file, 'pretend sprite');
    await publishFile({ db: t.db, store, rendererVersion: 'r1' }, item!, file, { renderMs: 1, framesPerSecond: 1 });
    expect(await listCache(t.db, { staleAgainst: 'r1' }, 'r1')).toEqual([]);
    expect((await planPregen(t.db, sources, { ...variants, stale: true }))[0]!.action).toBe('cached');

    const added = await addModel(t.db, store, gpu.id, modelInputFromBytes('gpu.glb', gpuGlb), opts);
    const stale = await listCache(t.db, { staleAgainst: 'r1' }, 'r1');
    expect(stale.map((e) => [e.key, e.stale, e.staleReasons])).toEqual([[item!.key, true, ['models']]]);
    // the key leaves models out: the entry is still the one the build looks up, servable but stale
    const [again] = await planPregen(t.db, sources, variants);
    expect(again!.key).toBe(item!.key);
    expect(again!.action).toBe('cached');
    expect(again!.reason).toContain('other part models');
    const [redo] = await planPregen(t.db, sources, { ...variants, stale: true });
    expect(redo!.action).toBe('render');
    expect(redo!.models).toEqual({ [gpu.id]: added.model.sha256 });

    // re-rendered with the model: current again
    await publishFile({ db: t.db, store, rendererVersion: 'r1' }, redo!, file, { renderMs: 1, framesPerSecond: 1 });
    expect(await listCache(t.db, { staleAgainst: 'r1' }, 'r1')).toEqual([]);
    // removing the model makes it stale again (drawn with a model the part no longer has)
    await removeModel(t.db, gpu.id);
    expect((await listCache(t.db, { staleAgainst: 'r1' }, 'r1')).map((e) => e.staleReasons)).toEqual([['models']]);
  });
});
