import { describe, expect, it } from 'vitest';
import { DEMO_BUILDS, DEMO_IDS, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import { catalogStats } from '../../src/catalog/stats.js';
import {
  BuildNotFoundError,
  buildForShareCode,
  CatalogValidationError,
  createBuild,
  getBuild,
} from '../../src/catalog/builds.js';
import { getPartsByIds, listParts } from '../../src/catalog/parts.js';
import { resolveBuildParts } from '../../src/catalog/resolve-build.js';
import { seedDemoCatalog } from '../../src/catalog/seed-demo.js';
import { useTestDb } from '../helpers/db.js';

describe('catalog repository (real PostgreSQL)', () => {
  const t = useTestDb();

  it('seedDemoCatalog seeds an empty catalog once, also when called concurrently', async () => {
    const results = await Promise.all([seedDemoCatalog(t.db), seedDemoCatalog(t.db)]);
    expect(results.reduce((n, r) => n + r.parts, 0)).toBe(DEMO_PARTS.length);
    expect(results.reduce((n, r) => n + r.builds, 0)).toBe(DEMO_BUILDS.length);
    expect(await seedDemoCatalog(t.db)).toEqual({ parts: 0, builds: 0 });
    const stats = await catalogStats(t.db);
    expect(stats.parts).toBe(DEMO_PARTS.length);
    expect(stats.builds).toBe(DEMO_BUILDS.length);
    expect(stats.categories).toHaveLength(9);
    for (const c of stats.categories) expect(c.imported).toBe(0);
  });

  it('listParts pages in a stable (name, id) order with the total', async () => {
    const all = await listParts(t.db, 'GPU', { limit: 100, skip: 0 });
    const gpus = DEMO_PARTS.filter((p) => p.category === 'GPU');
    expect(all.total).toBe(gpus.length);
    expect(all.items.map((p) => p.name)).toEqual(gpus.map((p) => p.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(Object.keys(all.items[0]!).sort()).toEqual(['category', 'id', 'image_key', 'name']);
    const page = await listParts(t.db, 'GPU', { limit: 3, skip: 2 });
    expect(page.total).toBe(gpus.length);
    expect(page.items).toEqual(all.items.slice(2, 5));
    expect((await listParts(t.db, 'GPU', { limit: 5, skip: 500 })).items).toEqual([]);
  });

  it('getPartsByIds returns known parts of any category in the asked order, with parsed specs', async () => {
    const rows = await getPartsByIds(t.db, [
      DEMO_IDS.gpuFlagship,
      'nosuchpart',
      DEMO_IDS.caseCubeItx,
      DEMO_IDS.gpuFlagship,
    ]);
    expect(rows.map((r) => r.id)).toEqual([DEMO_IDS.gpuFlagship, DEMO_IDS.caseCubeItx]);
    expect(rows[0]).toMatchObject({ category: 'GPU', version: 1, specs: { lengthMm: 340, fanCount: 3 } });
    expect(await getPartsByIds(t.db, [])).toEqual([]);
  });

  it('getBuild returns a demo build with its state', async () => {
    const b = await getBuild(t.db, 'DEMO-AIO360');
    expect(b).toMatchObject({ shareCode: 'DEMO-AIO360', interactiveState: { radiator: { slot: 'top' } } });
    expect(await getBuild(t.db, 'demo-aio360')).toBeNull();
    expect((await getBuild(t.db, 'DEMO-ITX'))!.interactiveState).toBeNull();
  });

  it('buildForShareCode gives what a share code renders (parts and state), or 404 build_not_found naming the code', async () => {
    const saved = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-AIO360')!;
    expect(await buildForShareCode(t.db, 'DEMO-AIO360')).toEqual({
      shareCode: 'DEMO-AIO360',
      parts: saved.parts,
      state: saved.interactiveState,
    });
    expect((await buildForShareCode(t.db, 'DEMO-ITX')).state).toBeNull();
    const err = await buildForShareCode(t.db, 'demo-aio360').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildNotFoundError);
    expect(err).toMatchObject({
      code: 'build_not_found',
      status: 404,
      message: 'no build with share code "demo-aio360"',
    });
  });

  it('resolveBuildParts keeps duplicates, reports missing and misplaced IDs, gives versions', async () => {
    const r = await resolveBuildParts(t.db, {
      RAM: [DEMO_IDS.ramRed2x8, DEMO_IDS.ramRed2x8],
      GPU: [DEMO_IDS.gpuMini1Fan, 'zzzzzzzzz'],
      CPU: [DEMO_IDS.gpuFlagship],
    });
    expect(r.parts.RAM!.map((p) => p.id)).toEqual([DEMO_IDS.ramRed2x8, DEMO_IDS.ramRed2x8]);
    expect(r.parts.RAM![0]!.specs).toMatchObject({ modules: 2 });
    expect(r.parts.GPU!.map((p) => p.id)).toEqual([DEMO_IDS.gpuMini1Fan]);
    expect(r.parts.CPU).toBeUndefined();
    expect(r.missing.sort()).toEqual(['zzzzzzzzz', DEMO_IDS.gpuFlagship].sort());
    expect(r.versions).toEqual({ [DEMO_IDS.ramRed2x8]: 1, [DEMO_IDS.gpuMini1Fan]: 1 });
  });

  it('createBuild validates categories, part IDs, state and share codes', async () => {
    const fail = async (input: Parameters<typeof createBuild>[1]) => {
      try {
        await createBuild(t.db, input);
      } catch (err) {
        expect(err).toBeInstanceOf(CatalogValidationError);
        return err as CatalogValidationError;
      }
      throw new Error('expected a validation error');
    };
    expect((await fail({ name: 'x', parts: { Gpu: [DEMO_IDS.gpuMini1Fan] } })).code).toBe('invalid_category');
    const unknown = await fail({ name: 'x', parts: { GPU: ['nosuchpart', DEMO_IDS.cpuR5] } });
    expect(unknown.code).toBe('unknown_part');
    expect(unknown.problems).toEqual([
      'nosuchpart (GPU): no such part',
      `${DEMO_IDS.cpuR5}: is a CPU, listed under GPU`,
    ]);
    expect((await fail({ name: 'x', parts: {} })).code).toBe('empty_parts');
    // a saved build is rendered by share code: the render request's count limits apply when it is saved
    const twoCases = await fail({ name: 'x', parts: { PCCase: [DEMO_IDS.caseCubeItx, DEMO_IDS.caseSlabItx] } });
    expect(twoCases.code).toBe('invalid_parts');
    expect(twoCases.message).toBe('a build holds at most 1 PCCase part, got 2');
    const state = await fail({
      name: 'x',
      parts: { GPU: [DEMO_IDS.gpuMini1Fan] },
      interactiveState: { fans: [{ slot: 'roof-1' }] },
    });
    expect(state.code).toBe('invalid_state');
    expect(state.message).toMatch(/fans\.0\.slot/);
    expect(
      (
        await fail({
          name: 'x',
          parts: { GPU: [DEMO_IDS.gpuMini1Fan] },
          interactiveState: { fans: [{ slot: 'front-1', partId: DEMO_IDS.cpuR5 }] },
        })
      ).code,
    ).toBe('unknown_part');
    expect((await fail({ name: 'x', parts: { GPU: [DEMO_IDS.gpuMini1Fan] }, shareCode: 'no spaces' })).code).toBe(
      'invalid_share_code',
    );
    expect((await fail({ name: 'x', parts: { GPU: [DEMO_IDS.gpuMini1Fan] }, shareCode: 'DEMO-GLASS' })).code).toBe(
      'share_code_taken',
    );
  });

  it('createBuild saves a valid build, generating a share code when absent', async () => {
    const b = await createBuild(t.db, {
      name: ' Twin kits ',
      parts: { RAM: [DEMO_IDS.ramRed2x8, DEMO_IDS.ramRed2x8], CaseFan: [DEMO_IDS.fan140Black], GPU: [] },
      interactiveState: { fans: [{ slot: 'front-1', partId: DEMO_IDS.fan140Black }], rgb: { color: '#112233' } },
    });
    expect(b.shareCode).toMatch(/^B-[A-Z2-9]{8}$/);
    expect(b).toMatchObject({
      name: 'Twin kits',
      description: '',
      parts: { RAM: [DEMO_IDS.ramRed2x8, DEMO_IDS.ramRed2x8], CaseFan: [DEMO_IDS.fan140Black] },
    });
    expect(b.parts.GPU).toBeUndefined();
    expect(b.interactiveState).toEqual({
      fans: [{ slot: 'front-1', partId: DEMO_IDS.fan140Black }],
      rgb: { color: '#112233', mode: 'static' },
    });
    expect(await getBuild(t.db, b.shareCode)).toEqual(b);
    const named = await createBuild(t.db, {
      name: 'Named',
      shareCode: 'MY_RIG-1',
      description: 'd',
      parts: { GPU: [DEMO_IDS.gpuMini1Fan] },
    });
    expect(named.shareCode).toBe('MY_RIG-1');
    expect((await catalogStats(t.db)).builds).toBe(DEMO_BUILDS.length + 2);
  });
});
