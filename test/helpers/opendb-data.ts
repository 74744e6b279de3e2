/** Where the shared OpenDB test data lives (../shared/opendb beside the project), and readers. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, type Category } from '../../src/model/part.js';

export const OPENDB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/opendb');
export const SAMPLE_DIR = path.join(OPENDB_DIR, 'sample');
export const FULL_TARBALL = path.join(OPENDB_DIR, 'opendb-renderable.tar.gz');

/** Every sample record: category, file name, parsed JSON. */
export function sampleRecords(): { category: Category; file: string; record: unknown }[] {
  return CATEGORIES.flatMap((category) => {
    const dir = path.join(SAMPLE_DIR, 'open-db', category);
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((file) => ({ category, file, record: JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as unknown }));
  });
}
