/**
 * Part models placed right the first time (docs/part-models.md), through every entry point on
 * one database and store: a GPU authored lying along X in millimetres (the project's example
 * model, turned and scaled as a CAD export writes it) is stored upright at its true size by
 * `models add` with no flag, and PUT /models/:partId, `render --model` and `models import` give
 * the same prepared sha256. A GPU given to a case is refused (exit 2 / 422) with its proportions
 * even with --fit / ?fit=true; --force / ?force=true stores it with a warning; bad --up / ?up= are
 * exit 2 / 400; --json failures are the API's error body on stdout; `models show` has the scale
 * and rotation; `rollback --to` goes back several versions. Real CLI child processes, the real
 * HTTP API, PostgreSQL and filesystem store.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { DEMO_BUILDS, DEMO_PARTS, demoPart } from '../../src/catalog/demo-catalog.js';
import type { Part } from '../../src/model/part.js';
import { isErrorBody, useTestApi } from '../helpers/api.js';
import { cliOn } from '../helpers/cli.js';
import { SIZE_256_FAST, SPRITE_256_FAST } from '../helpers/render-args.js';
import { distinctiveGpu } from '../helpers/gltf-fixtures.js';
import { dracoGlb } from '../helpers/artist-models.js';
import { exampleAuthoredAs, TURNS, turnAndScale } from '../helpers/real-exports.js';
import { exampleModel } from '../../src/part-models/example-models.js';

const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
const gpu = DEMO_PARTS.find((p) => p.id === glass.parts.GPU![0]) as Part<'GPU'>;
const pcCase = demoPart('caseAeroGlass');

describe('models placed right the first time, through every entry point', () => {
  const api = useTestApi();
  const cli = (...args: string[]) => cliOn(api.t)(...args);
  let admin: string;
  let tmp: string;
  let gpuMm: string;
  let gpuMmBytes: Uint8Array;

  const put = (partId: string, body: Uint8Array, query = '') =>
    fetch(`${api.url}/models/${partId}${query}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'model/gltf-binary' },
      body: Buffer.from(body),
    }).then(async (r) => ({ status: r.status, json: (await r.json().catch(() => undefined)) as any }));
  const rows = async (partId: string) =>
    api.t.db.db.selectFrom('part_models').selectAll().where('part_id', '=', partId).orderBy('id').execute();
  /** `models add` of file (no flag), which must find it along X in mm; the JSON it printed. */
  const addedAlongXInMm = async (file: string) => {
    const added = await cli('models', 'add', gpu.id, file, '--json');
    expect(added.code, added.stderr).toBe(0);
    const a = JSON.parse(added.stdout);
    expect(a.prepared.orientation).toMatchObject({
      rotation: '-90 deg about Y',
      units: 'mm',
      up: '+y',
      front: '+x',
      guessed: false,
    });
    return a;
  };
  /** `render --model` and `models import` of file give sha; suffix keeps each test's dirs apart. */
  const expectRenderAndImportStore = async (file: string, sha: string, suffix: string) => {
    const rendered = await cli(
      'render',
      '--share-code',
      'DEMO-GLASS',
      ...SPRITE_256_FAST,
      '--no-screenshot',
      '--out',
      path.join(tmp, `render${suffix}`),
      '--model',
      `${gpu.id}=${file}`,
      '--json',
    );
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(JSON.parse(rendered.stdout).models).toEqual({ [gpu.id]: sha });
    const dir = path.join(tmp, `import${suffix}`);
    await fs.mkdir(dir);
    await fs.copyFile(file, path.join(dir, `${gpu.id}.glb`));
    const imported = await cli('models', 'import', dir, '--json');
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout).items[0]).toMatchObject({ ok: true, model: { sha256: sha } });
  };

  beforeAll(async () => {
    admin = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-models-place-'));
    gpuMmBytes = await exampleAuthoredAs(gpu, TURNS.yPlus90, 'mm');
    gpuMm = path.join(tmp, 'gpu-along-x-mm.glb');
    await fs.writeFile(gpuMm, gpuMmBytes);
  }, 60_000);
  afterAll(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it('models add (no flag), PUT, render --model and models import store one sha256: upright, true size, mm -> m; models show prints scale and rotation', async () => {
    const a = await addedAlongXInMm(gpuMm);
    expect(a.prepared.scale).toBeCloseTo(0.001, 6);
    // stored at the catalog card's size (length along Z), not a 0.3 mm speck or a 305 m card
    a.prepared.sizeMm.forEach((v: number, i: number) =>
      expect(Math.abs(v - a.prepared.expectedMm[i]), `axis ${i}`).toBeLessThan(a.prepared.expectedMm[i] * 0.05),
    );
    const sha = a.model.sha256 as string;
    const row = (await rows(gpu.id)).at(-1)!;
    expect(row).toMatchObject({
      sha256: sha,
      rotation: '-90 deg about Y',
      units: 'mm',
      up_axis: '+y',
      front_axis: '+x',
      orientation_guessed: false,
    });

    const plain = await cli('models', 'add', gpu.id, gpuMm);
    expect(plain.stdout).toContain('already has this model');

    const viaApi = await put(gpu.id, gpuMmBytes);
    expect(viaApi.status).toBe(200);
    expect(viaApi.json).toMatchObject({
      sha256: sha,
      rotation: '-90 deg about Y',
      units: 'mm',
      placed: 'rotated: -90 deg about Y; units: mm -> m',
    });

    await expectRenderAndImportStore(gpuMm, sha, '');

    const show = await cli('models', 'show', gpu.id);
    expect(show.stdout).toMatch(/VERSION\s+SHA256\s+STATE\s+TRIANGLES\s+BYTES\s+SCALE\s+ROTATION/);
    expect(show.stdout).toMatch(/x0\.001\s+-90 deg about Y; mm -> m/);
  }, 240_000);

  it('a GPU given to a case: refused with its proportions even with --fit / ?fit=true (exit 2 / 422, the same code as JSON on stdout); --force stores it with a warning', async () => {
    const file = path.join(tmp, 'gpu-for-case.glb');
    await fs.writeFile(file, await exampleAuthoredAs(gpu, TURNS.none, 'm'));
    const before = (await rows(pcCase.id)).length;
    const refused = await cli('models', 'add', pcCase.id, file, '--fit', '--json');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /proportions 1 : 0\.\d+ : 0\.\d+, longest first\) but PCCase .* \(proportions 1 : 0\.\d+ : 0\.\d+\).*does not look like a PCCase/,
    );
    const body = JSON.parse(refused.stdout);
    expect(isErrorBody(body)).toBe(true);
    expect(body.error).toBe('invalid_model');
    expect(body.details).toHaveLength(3);
    const viaApi = await put(pcCase.id, await fs.readFile(file), '?fit=true');
    expect(viaApi.status).toBe(422);
    expect(viaApi.json.error).toBe(body.error);
    expect(viaApi.json.message).toBe(body.message.replace('gpu-for-case.glb', `${pcCase.id}.glb`));
    expect((await rows(pcCase.id)).length).toBe(before);

    const forced = await cli('models', 'add', pcCase.id, file, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/warning: stored anyway \(--force\)/);
    const forcedApi = await put(pcCase.id, await fs.readFile(file), '?force=true');
    expect(forcedApi.status).toBe(200);
    expect(forcedApi.json.warnings.join('\n')).toMatch(/stored anyway/);
    expect((await cli('models', 'rm', pcCase.id)).code).toBe(0);
  }, 120_000);

  it('bad --up / --units values: exit 2 naming the values taken (JSON with --json); bad ?up=: 400; ?up=+z unescaped (a space) works', async () => {
    const bad = await cli('models', 'add', gpu.id, gpuMm, '--up', 'sideways');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('up must be one of +x, -x, +y, -y, +z, -z');
    const badJson = await cli('models', 'add', gpu.id, gpuMm, '--units', 'furlong', '--json');
    expect(badJson.code).toBe(2);
    expect(JSON.parse(badJson.stdout)).toMatchObject({ error: 'invalid_orientation' });
    const badQuery = await put(gpu.id, gpuMmBytes, '?front=%2Bw');
    expect(badQuery.status).toBe(400);
    expect(badQuery.json).toMatchObject({ error: 'invalid_orientation' });
    // told the truth explicitly: the same bytes as detected
    const told = await put(gpu.id, gpuMmBytes, '?up=+y&units=mm&front=%2Bx');
    expect(told.status).toBe(200);
    expect(told.json.sha256).toBe((await rows(gpu.id)).at(-1)!.sha256);
  }, 60_000);

  it('models import prints every warning under its file; the manifest takes up/front/units', async () => {
    const dir = path.join(tmp, 'manifest');
    await fs.mkdir(dir);
    // no names tell this card's bracket end: the side is a guess, and import says so
    await fs.writeFile(
      path.join(dir, 'plain.glb'),
      await (async () => {
        const { authoredAs } = await import('../helpers/real-exports.js');
        return authoredAs(distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth), TURNS.yPlus90, 'm');
      })(),
    );
    await fs.writeFile(
      path.join(dir, 'manifest.json'),
      JSON.stringify({ models: [{ part: gpu.id, file: 'plain.glb' }] }),
    );
    const r = await cli('models', 'import', path.join(dir, 'manifest.json'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ok {6}\w+ {2}\w+ {2}\d+ triangles {2}placed: rotated: [+-]90 deg about Y/);
    expect(r.stdout).toMatch(/\n {10}warning: orientation .* is a guess/);
    // models preview of that file says the side is a guess beside the still
    const still = path.join(tmp, 'preview.png');
    const previewPlain = (...extra: string[]) =>
      cli(
        'models',
        'preview',
        gpu.id,
        '--file',
        path.join(dir, 'plain.glb'),
        '--out',
        still,
        ...SIZE_256_FAST,
        ...extra,
      );
    const preview = await previewPlain();
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(
      /placed: rotated: [+-]90 deg about Y \(which way the front faces is a guess: check the still; --front sets it\)/,
    );
    const told1 = await previewPlain('--front', '-x');
    expect(told1.stdout).not.toMatch(/is a guess/);
    await fs.writeFile(
      path.join(dir, 'manifest.json'),
      JSON.stringify({ models: [{ part: gpu.id, file: 'plain.glb', front: '-x' }] }),
    );
    const told = await cli('models', 'import', path.join(dir, 'manifest.json'), '--json');
    expect(told.code, told.stderr).toBe(0);
    expect(JSON.parse(told.stdout).items[0].prepared.orientation).toMatchObject({ front: '-x', guessed: false });
    await fs.writeFile(
      path.join(dir, 'manifest.json'),
      JSON.stringify({ models: [{ part: gpu.id, file: 'plain.glb', units: 'yards' }] }),
    );
    const badManifest = await cli('models', 'import', path.join(dir, 'manifest.json'));
    expect(badManifest.code).toBe(2);
    expect(badManifest.stderr).toMatch(/models\[0\]: units must be m, cm, mm or inch/);
  }, 120_000);

  it('rollback --to <version> and --to <sha256 prefix> go back several versions; a retired or unknown one is refused', async () => {
    // three more versions: the same card cut finer each time (other bytes)
    for (const cuts of [2, 3, 4])
      expect(
        (await put(gpu.id, await distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth, cuts).glb())).status,
      ).toBe(201);
    const show = JSON.parse((await cli('models', 'show', gpu.id, '--json')).stdout);
    const versions = show.history.map((h: { version: number; sha256: string }) => [h.version, h.sha256]);
    expect(versions.length).toBeGreaterThanOrEqual(3);
    const oldest = versions.at(-1)!;
    const r = await cli('models', 'rollback', gpu.id, '--to', String(oldest[0]), '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).current.sha256).toBe(oldest[1]);
    expect(JSON.parse(r.stdout).retiredAll.length).toBe(versions.length - 1);
    const retired = await cli('models', 'rollback', gpu.id, '--to', String(versions[0]![0]), '--json');
    expect(retired.code).toBe(2);
    expect(JSON.parse(retired.stdout).error).toBe('invalid_rollback_target');
    const unknown = await cli('models', 'rollback', gpu.id, '--to', '99');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/has versions 1 to \d+, not 99/);
    // by sha256 prefix over the API, past a newer version
    expect((await put(gpu.id, await distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth, 5).glb())).status).toBe(
      201,
    );
    const byPrefix = await fetch(`${api.url}/models/${gpu.id}/rollback?to=${(oldest[1] as string).slice(0, 8)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(byPrefix.status).toBe(200);
    expect(((await byPrefix.json()) as { sha256: string }).sha256).toBe(oldest[1]);
    const already = await fetch(`${api.url}/models/${gpu.id}/rollback?to=${(oldest[1] as string).slice(0, 8)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(already.status).toBe(409);
  }, 120_000);

  // last: it adds versions to the GPU's history that the tests above count
  it('the same GPU as a Draco GLB (along X, in mm, as Blender or Sketchfab write it): models add with no flag stores it upright at its true size; PUT, render --model and models import agree', async () => {
    const sketch = await exampleModel(gpu);
    turnAndScale(sketch.doc, TURNS.yPlus90, 'mm');
    const bytes = await dracoGlb(sketch);
    const file = path.join(tmp, 'gpu-along-x-mm-draco.glb');
    await fs.writeFile(file, bytes);
    const a = await addedAlongXInMm(file);
    a.prepared.sizeMm.forEach((v: number, i: number) =>
      expect(Math.abs(v - a.prepared.expectedMm[i]), `axis ${i}`).toBeLessThan(a.prepared.expectedMm[i] * 0.05),
    );
    const sha = a.model.sha256 as string;
    // the current version is this file's (decoded at preparation: test/part-models/artist-files.test.ts)
    expect((await rows(gpu.id)).at(-1)).toMatchObject({ sha256: sha, rotation: '-90 deg about Y', units: 'mm' });
    const viaApi = await put(gpu.id, bytes);
    expect(viaApi.status).toBe(200);
    expect(viaApi.json).toMatchObject({ sha256: sha, rotation: '-90 deg about Y', units: 'mm' });
    await expectRenderAndImportStore(file, sha, '-draco');
  }, 240_000);
});
