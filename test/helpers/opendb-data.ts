/**
 * OpenDB test data. The suite needs only the fixture inside the project
 * (test/fixtures/opendb: 20 real records per category, with its licence and attribution).
 * The larger data (a 200-per-category sample, the full 29k-record tarball) is optional: it is
 * read from OPENDB_SHARED_DIR, else ../shared/opendb beside the repository, and the tests that
 * use it (test/full-data/) skip with a printed reason when it is absent.
 * OPENDB_SHARED_DIR=none hides it (CI proves the suite passes without it);
 * OPENDB_REQUIRE_SHARED=1 turns its absence into a failure (CI's full-data step must not
 * pass by skipping).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, type Category } from '../../src/model/part.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The project's own OpenDB fixture, in OpenDB's layout (`open-db/<Category>/<uuid>.json`). */
export const FIXTURE_DIR = path.join(REPO, 'test/fixtures/opendb');

export interface OpenDbRecord {
  category: Category;
  file: string;
  record: unknown;
}

/** Every record under `<dir>/open-db`, by category then file name. */
export function readRecords(dir: string): OpenDbRecord[] {
  return CATEGORIES.flatMap((category) => {
    const catDir = path.join(dir, 'open-db', category);
    return fs
      .readdirSync(catDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((file) => ({
        category,
        file,
        record: JSON.parse(fs.readFileSync(path.join(catDir, file), 'utf8')) as unknown,
      }));
  });
}

/** The fixture's records (always there). */
export function fixtureRecords(): OpenDbRecord[] {
  return readRecords(FIXTURE_DIR);
}

/** How many fixture records each category has. */
export function fixtureCounts(): Record<Category, number> {
  const counts = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  for (const r of fixtureRecords()) counts[r.category]++;
  return counts;
}

/** Where the optional larger data is looked for, and why when it is not used. */
export function sharedOpenDbDir(env: NodeJS.ProcessEnv = process.env): { dir: string | null; reason: string } {
  const set = env.OPENDB_SHARED_DIR;
  if (set === 'none' || set === '')
    return { dir: null, reason: 'OPENDB_SHARED_DIR=none hides the optional OpenDB data' };
  const dir = path.resolve(set ?? path.join(REPO, '../shared/opendb'));
  return {
    dir,
    reason: `optional OpenDB data not found in ${dir} (set OPENDB_SHARED_DIR to a folder holding sample/open-db or opendb-renderable.tar.gz)`,
  };
}

export interface OptionalData {
  /** the path, or null when the tests that need it are skipped */
  path: string | null;
  /** why it is missing (printed once, when skipped) */
  reason: string;
}

/**
 * An optional file or folder of the shared OpenDB data (`sample`, `opendb-renderable.tar.gz`).
 * Missing: prints the reason (a skipped test must say why), or throws under
 * OPENDB_REQUIRE_SHARED=1.
 */
export function optionalShared(
  name: 'sample' | 'opendb-renderable.tar.gz',
  env: NodeJS.ProcessEnv = process.env,
): OptionalData {
  const { dir, reason } = sharedOpenDbDir(env);
  const file = dir && path.join(dir, name);
  if (file && fs.existsSync(file)) return { path: file, reason: '' };
  const why = dir ? `${reason}: ${name} missing` : reason;
  if (env.OPENDB_REQUIRE_SHARED === '1') throw new Error(`OPENDB_REQUIRE_SHARED=1 but ${why}`);
  console.warn(`skipped (${name}): ${why}`);
  return { path: null, reason: why };
}
