/**
 * Where the shared OpenDB test data lives (../shared/opendb beside the project), and readers.
 * Missing data fails the test that needs it with one clear line: a skipped test would hide
 * that a CI checkout lacks the data, and nothing would be checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, type Category } from '../../src/model/part.js';

export const OPENDB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/opendb');
export const SAMPLE_DIR = path.join(OPENDB_DIR, 'sample');
export const FULL_TARBALL = path.join(OPENDB_DIR, 'opendb-renderable.tar.gz');

/** `file` when it exists; otherwise throws saying what is missing and where it is expected. */
export function requireShared(file: string): string {
  if (!fs.existsSync(file)) {
    throw new Error(`shared test data missing: ${file} (the tests read ../shared/opendb beside the repository; check out the shared data there)`);
  }
  return file;
}

/** Every sample record: category, file name, parsed JSON (sorted by file name). */
export function sampleRecords(): { category: Category; file: string; record: unknown }[] {
  requireShared(path.join(SAMPLE_DIR, 'open-db'));
  return CATEGORIES.flatMap((category) => {
    const dir = path.join(SAMPLE_DIR, 'open-db', category);
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((file) => ({ category, file, record: JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as unknown }));
  });
}
