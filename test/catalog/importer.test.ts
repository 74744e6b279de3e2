import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenDb, OpenDbLayoutError } from '../../src/catalog/importer.js';
import { partIdFromOpenDbId } from '../../src/catalog/opendb-map.js';
import { CATEGORIES } from '../../src/model/part.js';
import { FIXTURE_DIR, fixtureCounts } from '../helpers/opendb-data.js';
import { useTestDb } from '../helpers/db.js';

describe('importOpenDb (real PostgreSQL)', () => {
  const t = useTestDb();
  let tmp: string;
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-import-'));
  });
  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  const counts = async () =>
    Object.fromEntries(
      (
        await t.db.db
          .selectFrom('parts')
          .select(['category', (eb) => eb.fn.countAll<string>().as('n')])
          .groupBy('category')
          .execute()
      ).map((r) => [r.category, Number(r.n)]),
    );

  const expected = fixtureCounts();
  const total = Object.values(expected).reduce((a, b) => a + b, 0);

  it('imports every fixture record, per category, keeping raw and opendb_id', async () => {
    const progress: number[] = [];
    // batches smaller than a category: a category spans several batches
    const s = await importOpenDb(t.db, FIXTURE_DIR, { batchSize: 7, onProgress: (p) => progress.push(p.overallDone) });
    expect(s.dir).toBe(path.join(FIXTURE_DIR, 'open-db'));
    expect(s.categories.map((c) => c.category)).toEqual([...CATEGORIES]);
    for (const c of s.categories) {
      const n = expected[c.category];
      expect(c, c.category).toMatchObject({ read: n, imported: n, inserted: n, updated: 0, unchanged: 0, skipped: 0 });
      expect(c.partsPerSecond).toBeGreaterThan(0);
    }
    expect(s.total).toMatchObject({ read: total, imported: total, skipped: 0 });
    expect(progress.at(-1)).toBe(total);
    expect(await counts()).toEqual(expected);

    const file = (await fs.readdir(path.join(FIXTURE_DIR, 'open-db', 'GPU')))[0]!;
    const record = JSON.parse(await fs.readFile(path.join(FIXTURE_DIR, 'open-db', 'GPU', file), 'utf8'));
    const row = await t.db.db
      .selectFrom('parts')
      .selectAll()
      .where('id', '=', partIdFromOpenDbId(record.opendb_id))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ category: 'GPU', opendb_id: record.opendb_id, version: 1, raw: record });
    expect(row.specs).toMatchObject({ lengthMm: expect.any(Number), fanCount: expect.any(Number) });
  });

  it('re-import is idempotent: nothing written, versions unchanged (also via the open-db folder itself)', async () => {
    const before = await t.db.db.selectFrom('parts').select(['id', 'version', 'updated_at']).orderBy('id').execute();
    const s = await importOpenDb(t.db, path.join(FIXTURE_DIR, 'open-db'));
    expect(s.total).toMatchObject({
      read: total,
      imported: total,
      inserted: 0,
      updated: 0,
      unchanged: total,
      skipped: 0,
    });
    const after = await t.db.db.selectFrom('parts').select(['id', 'version', 'updated_at']).orderBy('id').execute();
    expect(after).toEqual(before);
  });

  it('counts bad files and unusable records with reasons; bumps version only when specs change', async () => {
    const gpuDir = path.join(tmp, 'open-db', 'GPU');
    await fs.mkdir(gpuDir, { recursive: true });
    await fs.mkdir(path.join(tmp, 'open-db', 'Monitor'));
    const id1 = '11111111-1111-4111-8111-111111111111';
    const write = (name: string, body: unknown) =>
      fs.writeFile(path.join(gpuDir, name), typeof body === 'string' ? body : JSON.stringify(body));
    /** GPU id1's record file, as OpenDB writes one */
    const writeGpu1 = (name: string, cooling: string, length: number) =>
      write(`${id1}.json`, { opendb_id: id1, metadata: { name }, cooling, length });
    await writeGpu1('Test GPU', '2 Fans', 250);
    await write('22222222-2222-4222-8222-222222222222.json', '{ not json');
    await write('33333333-3333-4333-8333-333333333333.json', [1, 2, 3]);
    await write('44444444-4444-4444-8444-444444444444.json', { metadata: { name: null } });
    // no opendb_id inside: the file name supplies it
    await write('55555555-5555-4555-8555-555555555555.json', { metadata: { name: 'Nameless Id GPU' } });
    await write('not-a-uuid.json', { metadata: { name: 'Orphan GPU' } });
    await write('66666666-6666-4666-8666-666666666666.json', {
      opendb_id: id1,
      metadata: { name: 'Duplicate of 1111' },
    });
    // jsonb refuses \u0000: only this record is skipped, its batch-mates still land
    await write('77777777-7777-4777-8777-777777777777.json', '{"metadata": {"name": "Nul GPU"}, "note": "a\\u0000b"}');

    const s = await importOpenDb(t.db, tmp, { categories: ['GPU'] });
    const gpu = s.categories[0]!;
    expect(gpu).toMatchObject({ read: 8, imported: 2, skipped: 6 });
    expect(s.ignoredFolders).toEqual(['Monitor']);
    const rejected = gpu.reasons.find((r) => r.reason.startsWith('rejected by the database'));
    expect(rejected).toMatchObject({ count: 1, examples: ['GPU/77777777-7777-4777-8777-777777777777.json'] });
    const reasons = Object.fromEntries(gpu.reasons.filter((r) => r !== rejected).map((r) => [r.reason, r.count]));
    expect(reasons).toEqual({
      'invalid JSON': 1,
      'record is not a JSON object': 1,
      'record has no metadata.name': 1,
      'no opendb_id (neither in the record nor as the file name)': 1,
      'duplicate opendb_id': 1,
    });
    expect(gpu.reasons.find((r) => r.reason === 'invalid JSON')!.examples).toEqual([
      'GPU/22222222-2222-4222-8222-222222222222.json',
    ]);

    const id = partIdFromOpenDbId(id1);
    const version = async () =>
      await t.db.db.selectFrom('parts').select(['version', 'name']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await version()).toEqual({ version: 1, name: 'Test GPU' });
    // a name-only change updates the row but keeps the version (renders depend on specs)
    await writeGpu1('Test GPU Renamed', '2 Fans', 250);
    expect((await importOpenDb(t.db, tmp, { categories: ['GPU'] })).total).toMatchObject({ updated: 1, unchanged: 1 });
    expect(await version()).toEqual({ version: 1, name: 'Test GPU Renamed' });
    await writeGpu1('Test GPU Renamed', '3 Fans', 300);
    await importOpenDb(t.db, tmp, { categories: ['GPU'] });
    expect(await version()).toEqual({ version: 2, name: 'Test GPU Renamed' });
  });

  it('refuses a folder that is not OpenDB', async () => {
    await expect(importOpenDb(t.db, path.join(tmp, 'open-db', 'Monitor'))).rejects.toThrow(OpenDbLayoutError);
    await expect(importOpenDb(t.db, path.join(tmp, 'missing'))).rejects.toThrow(/is not a folder/);
  });
});
