/**
 * `render-farm models` as a child process (the compiled CLI) on a test database: add, list and
 * rm with --json; an unknown part and a file that is not glTF exit 2 with a clear line and store
 * nothing.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import { seedDemoCatalog } from '../../src/catalog/seed-demo.js';
import type { Part } from '../../src/model/part.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { modelLimitsFrom } from '../../src/part-models/model-limits.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { dracoGlb, ktx2Glb, meshoptGlb, specGlossGlb } from '../helpers/artist-models.js';
import { cliOn } from '../helpers/cli.js';
import { useTestDb } from '../helpers/db.js';
import { distinctiveGpu, gltfWithExternalBuffer, notGltf, texturedGpu } from '../helpers/gltf-fixtures.js';
import { hostileModels } from '../helpers/hostile-models.js';

const gpu = DEMO_PARTS.find((p) => p.category === 'GPU') as Part<'GPU'>;

describe('models CLI', () => {
  const t = useTestDb();
  const cli = cliOn(t);
  let tmp: string;
  let good: string;
  let bad: string;

  const rows = async () => t.db.db.selectFrom('part_models').selectAll().orderBy('id').execute();
  const stored = async () =>
    (await fs.readdir(path.join(t.cfg.dataDir, 'artifacts', 'models')).catch(() => [] as string[])).filter((f) =>
      f.endsWith('.glb'),
    );

  beforeAll(async () => {
    await seedDemoCatalog(t.db);
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-models-cli-'));
    good = path.join(tmp, 'card.glb');
    bad = path.join(tmp, 'card.stl.glb');
    await fs.writeFile(good, await distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth).glb());
    await fs.writeFile(bad, notGltf());
  }, 60_000);
  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('refuses an unknown part and a file that is not glTF: exit 2, one clear line, nothing stored', async () => {
    const unknown = await cli('models', 'add', 'no-such-part', good);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no part with ID "no-such-part"');
    const invalid = await cli('models', 'add', gpu.id, bad);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/^render-farm: .*card\.stl\.glb/m);
    expect(await rows()).toEqual([]);
    expect(await stored()).toEqual([]);
  }, 60_000);

  it("models preview takes the render options' own profiles and size range (the API's), named by flag: exit 2 before anything starts", async () => {
    const still = path.join(tmp, 'preview.png');
    const small = await cli('models', 'preview', gpu.id, '--out', still, '--width', '128', '--height', '128');
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(/--width: .*256.*got "128"/);
    const profile = await cli('models', 'preview', gpu.id, '--out', still, '--profile', 'cinema');
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain('--profile must be one of cinematic, flat, fast, got "cinema"');
  }, 60_000);

  it('refuses hostile files (a 20,000-deep node chain, a cycle, a decompression-bomb image) in one line each: exit 2, nothing stored', async () => {
    const hostile = await hostileModels();
    for (const [name, words] of [
      ['deep-20000', /20000 nodes, over the limit of 1000/],
      ['cycle', /the node graph has a cycle/],
      ['png-bomb-100000px', /100000x100000 px, over 8192 px a side/],
    ] as const) {
      const file = path.join(tmp, `${name}.glb`);
      await fs.writeFile(file, hostile.find((h) => h.name === name)!.bytes);
      const r = await cli('models', 'add', gpu.id, file);
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr, name).toMatch(words);
      expect(r.stderr, name).not.toMatch(/RangeError|TypeError|\n\s+at /);
    }
    expect(await rows()).toEqual([]);
    expect(await stored()).toEqual([]);
  }, 60_000);

  it('add --json, list --json, rm --json: the model is stored, listed, then retired', async () => {
    const add = await cli('models', 'add', gpu.id, good, '--json');
    expect(add.code, add.stderr).toBe(0);
    const added = JSON.parse(add.stdout);
    expect(added).toMatchObject({
      part: { id: gpu.id, category: 'GPU' },
      unchanged: false,
      model: { partId: gpu.id, originalName: 'card.glb' },
    });
    expect(added.model.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(added.model.createdBy).toMatch(/^cli/);
    expect(await stored()).toEqual([`${added.model.sha256}.glb`]);

    const list = await cli('models', 'list', '--json');
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject([{ part: { id: gpu.id }, model: { sha256: added.model.sha256 } }]);
    const text = await cli('models', 'list', '--category', 'GPU');
    expect(text.stdout).toMatch(new RegExp(`^${gpu.id}\\s+GPU\\s+${added.model.sha256.slice(0, 12)}`, 'm'));
    expect((await cli('models', 'list', '--category', 'Toaster')).code).toBe(2);

    const rm = await cli('models', 'rm', gpu.id, '--json');
    expect(rm.code, rm.stderr).toBe(0);
    expect(JSON.parse(rm.stdout)).toMatchObject({ partId: gpu.id, retired: [{ sha256: added.model.sha256 }] });
    expect(JSON.parse((await cli('models', 'list', '--json')).stdout)).toEqual([]);
    expect((await rows()).map((r) => r.retired_at !== null)).toEqual([true]);

    const again = await cli('models', 'rm', gpu.id);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`part ${gpu.id} has no model`);
    // preview names the same missing model with the same code as rm and the API (404 no_model), plus its --file way out
    const preview = await cli('models', 'preview', gpu.id, '--out', path.join(tmp, 'none.png'), '--json');
    expect(preview.code).toBe(2);
    expect(JSON.parse(preview.stdout)).toMatchObject({ error: 'no_model', message: expect.stringContaining('--file') });
  }, 120_000);

  it('refuses a 10x model (then --fit scales it), a .gltf whose buffer is missing and a CPU: exit 2, nothing stored', async () => {
    const huge = path.join(tmp, 'huge.glb');
    // 10x on every axis: the card's proportions in no known unit, which --fit scales (docs/part-models.md: a card
    // only longer and thicker is not a card, refused whatever --fit says)
    const tenfold = distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth);
    tenfold.root.setScale([10, 10, 10]);
    await fs.writeFile(huge, await tenfold.glb());
    const external = path.join(tmp, 'part.gltf');
    await fs.writeFile(external, (await gltfWithExternalBuffer()).json);
    const cpu = DEMO_PARTS.find((p) => p.category === 'CPU')!;
    const before = { rows: (await rows()).length, stored: await stored() };

    const tooBig = await cli('models', 'add', gpu.id, huge);
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toMatch(/measures .* mm .* but .* is about .* mm/);
    expect(tooBig.stderr).toContain('--fit');
    const missing = await cli('models', 'add', gpu.id, external);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('self-contained');
    const wrong = await cli('models', 'add', cpu.id, good);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/CPU/);
    expect((await rows()).length).toBe(before.rows);
    expect(await stored()).toEqual(before.stored);

    const fitted = await cli('models', 'add', gpu.id, huge, '--fit', '--json');
    expect(fitted.code, fitted.stderr).toBe(0);
    expect(JSON.parse(fitted.stdout).prepared.scale).toBeCloseTo(0.1, 1);
    expect((await cli('models', 'rm', gpu.id)).code).toBe(0);
  }, 90_000);
  it('add and import take the files artists export (Draco, KTX2/Basis, spec-gloss, meshopt) with the compiled CLI: exit 0, the same sha256 as preparation in-process', async () => {
    const gpus = DEMO_PARTS.filter((p) => p.category === 'GPU' && p.id !== gpu.id).slice(0, 4) as Part<'GPU'>[];
    const make = [
      dracoGlb,
      async (f: ReturnType<typeof distinctiveGpu>) => ktx2Glb(f),
      specGlossGlb,
      meshoptGlb,
    ] as const;
    const dir = path.join(tmp, 'artists');
    await fs.mkdir(dir);
    const files: Array<[Part<'GPU'>, Uint8Array]> = [];
    for (const [i, part] of gpus.entries()) {
      const sketch =
        i === 1
          ? await texturedGpu(64, part.specs.lengthMm, part.specs.slotWidth)
          : distinctiveGpu(part.specs.lengthMm, part.specs.slotWidth);
      const bytes = await make[i]!(sketch);
      files.push([part, bytes]);
      await fs.writeFile(path.join(dir, `${part.id}.glb`), bytes);
    }
    const expected = async ([part, bytes]: [Part<'GPU'>, Uint8Array]) =>
      (
        await prepareModel(
          modelInputFromBytes(`${part.id}.glb`, bytes),
          { id: part.id, category: part.category, specs: part.specs },
          { limits: modelLimitsFrom(t.cfg) },
        )
      ).sha256;

    // the Draco one alone through add (the compiled child finds draco3dgltf's wasm)
    const add = await cli('models', 'add', files[0]![0].id, path.join(dir, `${files[0]![0].id}.glb`), '--json');
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout).model.sha256).toBe(await expected(files[0]!));

    // all four through import (the compiled child finds three.js's Basis transcoder)
    const imported = await cli('models', 'import', dir, '--json');
    expect(imported.code, imported.stderr).toBe(0);
    const out = JSON.parse(imported.stdout);
    expect(out).toMatchObject({ added: 4, failed: 0 });
    for (const f of files) {
      const item = out.items.find((i: { partId: string }) => i.partId === f[0].id);
      expect(item.model.sha256, f[0].id).toBe(await expected(f));
    }
    for (const part of gpus) expect((await cli('models', 'rm', part.id)).code).toBe(0);
  }, 180_000);
});
