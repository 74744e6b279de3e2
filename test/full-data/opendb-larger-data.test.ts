/**
 * The same checks as the fixture's (test/catalog/opendb-map.test.ts, importer.test.ts,
 * test/farm/robustness.test.ts), over the optional larger OpenDB data: the 200-per-category
 * sample and the full 29k-record set. Robustness runs only: every behaviour is also covered by
 * the fixture. Skipped, saying why, when the data is absent (test/helpers/opendb-data.ts).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import { importOpenDb } from '../../src/catalog/importer.js';
import { partIdFromOpenDbId } from '../../src/catalog/opendb-map.js';
import { CATEGORIES } from '../../src/model/part.js';
import { useTestDb } from '../helpers/db.js';
import { optionalShared, readRecords } from '../helpers/opendb-data.js';
import { expectRecordsMap } from '../helpers/opendb-spec-ranges.js';
import { expectRecordsModel } from '../helpers/record-models.js';

const sample = optionalShared('sample');
const tarball = optionalShared('opendb-renderable.tar.gz');

// ten times the fixture's records, modelled on the CPU: minutes on a loaded 2-core machine
const LONG = 300_000;

describe.skipIf(!sample.path)('the 200-per-category OpenDB sample', () => {
  let cached: ReturnType<typeof readRecords> | null = null;
  const records = () => (cached ??= readRecords(sample.path!));

  it(
    'maps every record, specs in sane ranges',
    () => {
      const all = records();
      expect(new Set(all.map((r) => r.category)).size).toBe(9);
      expect(all.length).toBeGreaterThanOrEqual(9 * 200);
      expectRecordsMap(all);
    },
    LONG,
  );

  for (const category of CATEGORIES) {
    it(
      `${category}: every record models alone and inside a full build`,
      () => {
        expectRecordsModel(records().filter((r) => r.category === category));
      },
      LONG,
    );
  }

  describe('import into real PostgreSQL', () => {
    const t = useTestDb();

    it(
      'imports every record once; a re-import writes nothing',
      async () => {
        const n = records().length;
        const first = await importOpenDb(t.db, sample.path!);
        expect(first.dir).toBe(path.join(sample.path!, 'open-db'));
        expect(first.total).toMatchObject({ read: n, imported: n, inserted: n, skipped: 0 });
        const again = await importOpenDb(t.db, sample.path!);
        expect(again.total).toMatchObject({ read: n, inserted: 0, updated: 0, unchanged: n });
      },
      LONG,
    );
  });
});

describe.skipIf(!tarball.path)('the full OpenDB data set (29k records)', () => {
  it(
    'gives every record a unique part ID, never a demo ID',
    () => {
      // the file names are the opendb_ids (the importer checks that on the fixture)
      const names = execFileSync('tar', ['tzf', tarball.path!], { encoding: 'utf8', maxBuffer: 64 << 20 })
        .split('\n')
        .map((l) => /([0-9a-f-]{36})\.json$/.exec(l)?.[1])
        .filter((x): x is string => x !== undefined);
      expect(names.length).toBeGreaterThan(29_000);
      const ids = new Set(names.map(partIdFromOpenDbId));
      expect(ids.size).toBe(new Set(names).size);
      const demo = DEMO_PARTS.map((p) => p.id);
      expect(demo.filter((id) => ids.has(id))).toEqual([]);
    },
    LONG,
  );
});
