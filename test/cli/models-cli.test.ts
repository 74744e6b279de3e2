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
import { seedDemoCatalog } from '../../src/catalog/repository.js';
import type { Part } from '../../src/model/part.js';
import { cliOn } from '../helpers/cli.js';
import { useTestDb } from '../helpers/db.js';
import { distinctiveGpu, notGltf } from '../helpers/gltf-fixtures.js';

const gpu = DEMO_PARTS.find((p) => p.category === 'GPU') as Part<'GPU'>;

describe('models CLI', () => {
  const t = useTestDb();
  const cli = cliOn(t);
  let tmp: string;
  let good: string;
  let bad: string;

  const rows = async () => t.db.db.selectFrom('part_models').selectAll().orderBy('id').execute();
  const stored = async () => (await fs.readdir(path.join(t.cfg.dataDir, 'artifacts', 'models')).catch(() => [] as string[])).filter((f) => f.endsWith('.glb'));

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

  it('add --json, list --json, rm --json: the model is stored, listed, then retired', async () => {
    const add = await cli('models', 'add', gpu.id, good, '--json');
    expect(add.code, add.stderr).toBe(0);
    const added = JSON.parse(add.stdout);
    expect(added).toMatchObject({ part: { id: gpu.id, category: 'GPU' }, unchanged: false, model: { partId: gpu.id, originalName: 'card.glb' } });
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
  }, 120_000);
});
