/** Pregen inputs: the matrix syntax and product, part-map files (pure, no database). */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSizes } from '../../src/pregen/plan.js';
import { fileSources, matrixCombinations, parseMatrix, PregenInputError } from '../../src/pregen/sources.js';

describe('pregen sources', () => {
  it('parses a matrix and walks its cartesian product in order, up to a limit', () => {
    const axes = parseMatrix('  PCCase=a,b   GPU=x,y,z CaseFan=f1+f2 ');
    expect(axes).toEqual([
      { category: 'PCCase', values: ['a', 'b'] },
      { category: 'GPU', values: ['x', 'y', 'z'] },
      { category: 'CaseFan', values: ['f1+f2'] },
    ]);
    const matrix = axes.map((a) => ({ category: a.category, options: a.values.map((v) => v.split('+')) }));
    const all = [...matrixCombinations(matrix)];
    expect(all).toHaveLength(6);
    expect(all[0]).toEqual({ PCCase: ['a'], GPU: ['x'], CaseFan: ['f1', 'f2'] });
    expect(all[1]).toEqual({ PCCase: ['a'], GPU: ['y'], CaseFan: ['f1', 'f2'] });
    expect(all[5]).toEqual({ PCCase: ['b'], GPU: ['z'], CaseFan: ['f1', 'f2'] });
    expect([...matrixCombinations(matrix, 4)]).toHaveLength(4);
  });

  it('rejects malformed matrices and sizes with a message naming the problem', () => {
    expect(() => parseMatrix('GPU')).toThrow(PregenInputError);
    expect(() => parseMatrix('Toaster=a')).toThrow(/unknown category Toaster/);
    expect(() => parseMatrix('GPU=a GPU=b')).toThrow(/given twice/);
    expect(() => parseSizes('512x512,big')).toThrow(/WIDTHxHEIGHT/);
    expect(parseSizes('512x512, 1280x720')).toEqual([
      { width: 512, height: 512 },
      { width: 1280, height: 720 },
    ]);
  });

  it('reads part maps from JSON arrays and NDJSON files', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pregen-src-'));
    try {
      await fs.writeFile(
        path.join(dir, 'a.json'),
        JSON.stringify([{ PCCase: ['c1'], GPU: ['g1'] }, { parts: { PCCase: 'c2' } }]),
      );
      await fs.writeFile(
        path.join(dir, 'b.ndjson'),
        '# combos\n{"PCCase": ["c1"]}\n\n{"parts": {"PCCase": ["c3"], "RAM": ["r1", "r1"]}}\n',
      );
      await fs.writeFile(path.join(dir, 'bad.ndjson'), '{"PCCase": ["c1"]}\n{nope\n');
      const a = await fileSources(path.join(dir, 'a.json'));
      expect(a.map((s) => s.parts)).toEqual([{ PCCase: ['c1'], GPU: ['g1'] }, { PCCase: ['c2'] }]);
      expect(a[0]).toMatchObject({ label: 'a.json[0]', source: 'file:a.json' });
      const b = await fileSources(path.join(dir, 'b.ndjson'));
      expect(b.map((s) => s.label)).toEqual(['b.ndjson:2', 'b.ndjson:4']);
      expect(b[1]!.parts).toEqual({ PCCase: ['c3'], RAM: ['r1', 'r1'] });
      await expect(fileSources(path.join(dir, 'bad.ndjson'))).rejects.toThrow(/line 2/);
      await expect(fileSources(path.join(dir, 'missing.json'))).rejects.toThrow(PregenInputError);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
