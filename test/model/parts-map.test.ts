/** The parts map's rules (src/model/parts-map.ts): the same refusals, in the same order, for every entry point. */
import { describe, expect, it } from 'vitest';
import { checkPartsMap, parsePartsMap } from '../../src/model/parts-map.js';

describe('parts map rules', () => {
  it('accepts a map of known categories within their counts, a case or not', () => {
    expect(parsePartsMap({ PCCase: ['c'], GPU: ['g1', 'g2'], RAM: ['r', 'r'] })).toEqual({
      ok: true,
      parts: { PCCase: ['c'], GPU: ['g1', 'g2'], RAM: ['r', 'r'] },
    });
    expect(parsePartsMap({ GPU: ['g'] }).ok).toBe(true);
  });

  it('refuses an empty map, then unknown categories, then counts, each with its code and fields', () => {
    expect(checkPartsMap({})).toEqual({
      ok: false,
      refusal: {
        code: 'invalid_body',
        message: 'parts must not be empty',
        problems: [{ field: 'parts', message: 'empty' }],
      },
    });
    const cat = checkPartsMap({ Toaster: ['x'], Kettle: ['y'], GPU: ['a', 'b', 'c'] });
    expect(cat.ok || cat.refusal).toMatchObject({
      code: 'invalid_category',
      problems: [{ field: 'parts.Toaster' }, { field: 'parts.Kettle' }],
    });
    expect(cat.ok || cat.refusal.message).toMatch(/^unknown categories Toaster, Kettle: one of PCCase, /);
    const count = checkPartsMap({ GPU: ['a', 'b', 'c'], PCCase: ['x', 'y'] });
    expect(count.ok || count.refusal).toEqual({
      code: 'invalid_parts',
      message: 'a build holds at most 2 GPU parts, got 3; a build holds at most 1 PCCase part, got 2',
      problems: [
        { field: 'parts.GPU', message: 'a build holds at most 2 GPU parts, got 3' },
        { field: 'parts.PCCase', message: 'a build holds at most 1 PCCase part, got 2' },
      ],
    });
  });

  it('checks the shape of an unchecked value: lists of 1 to 16 IDs of 1 to 64 characters', () => {
    for (const bad of [
      { GPU: [] },
      { GPU: [''] },
      { GPU: ['x'.repeat(65)] },
      { GPU: 'x' },
      { GPU: ['a\u0000'] },
      ['GPU'],
      null,
    ]) {
      const r = parsePartsMap(bad);
      expect(r.ok, JSON.stringify(bad)).toBe(false);
      expect(r.ok || r.refusal.code).toBe('invalid_body');
    }
    const r = parsePartsMap({ GPU: [] });
    expect(r.ok || r.refusal.problems).toEqual([{ field: 'parts.GPU', message: expect.stringMatching(/>=1/) }]);
  });
});
