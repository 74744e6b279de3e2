/**
 * The public corpus (test/fixtures/corpus: files other tools wrote, with their licences) through
 * the real reading pipeline: readModelFile (a .gltf with the files beside it), the pre-checks,
 * decoding (Draco, meshopt), the Khronos validator with the named repairs, and glTF-Transform.
 * Each file has its expected outcome in corpus.json: read, with its triangles, what was decoded and
 * the warnings that must appear, or refused in words matching a pattern.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ModelRejectedError } from '../../src/part-models/model-errors.js';
import { modelJson, readModelFile } from '../../src/part-models/model-input.js';
import { validateModel } from '../../src/part-models/validate-model.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'corpus');
const limits = TEST_MODEL_LIMITS;

interface Entry {
  file: string;
  tool: string;
  expect: { read: { triangles: number; decoded: string[]; warnings?: string } } | { refused: string };
}
const corpus = JSON.parse(readFileSync(path.join(dir, 'corpus.json'), 'utf8')) as { models: Entry[] };

describe('public corpus: files other tools wrote', () => {
  for (const entry of corpus.models) {
    it(`${entry.file} (${entry.tool}): ${'read' in entry.expect ? 'read' : 'refused'}`, async () => {
      const outcome = await readModelFile(path.join(dir, entry.file), limits.modelMaxBytes)
        .then((input) => validateModel(input, limits))
        .then(
          (report) => ({ report }),
          (error: unknown) => ({ error }),
        );
      if ('refused' in entry.expect) {
        expect('error' in outcome && outcome.error).toBeInstanceOf(ModelRejectedError);
        expect((outcome as { error: Error }).error.message).toMatch(new RegExp(entry.expect.refused));
        return;
      }
      if ('error' in outcome) throw outcome.error;
      const { report } = outcome;
      expect(report.triangles).toBe(entry.expect.read.triangles);
      expect(report.decoded).toEqual(entry.expect.read.decoded);
      // what goes on to preparation is plain glTF: nothing decoded is left in it
      const used = (modelJson(report.input.kind, report.input.bytes)?.extensionsUsed ?? []) as string[];
      for (const ext of entry.expect.read.decoded) expect(used).not.toContain(ext);
      if (entry.expect.read.warnings)
        expect(report.warningMessages.join('\n')).toMatch(new RegExp(entry.expect.read.warnings));
    }, 60_000);
  }
});
