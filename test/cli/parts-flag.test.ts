import { describe, expect, it } from 'vitest';
import { parsePartsFlags } from '../../src/cli/parts-flag.js';
import { UsageError } from '../../src/cli/errors.js';

describe('builds create --parts parsing', () => {
  it('accepts repeated flags, several pairs per value, and accumulates a category', () => {
    expect(parsePartsFlags(['GPU=a,b', 'CPU=c RAM=d;RAM=d', 'GPU=e'])).toEqual({
      GPU: ['a', 'b', 'e'],
      CPU: ['c'],
      RAM: ['d', 'd'],
    });
  });

  it('rejects unknown categories and empty lists with a usage error naming them', () => {
    expect(() => parsePartsFlags(['Gpu=a'])).toThrow(UsageError);
    expect(() => parsePartsFlags(['Gpu=a'])).toThrow(/unknown category "Gpu"/);
    expect(() => parsePartsFlags(['GPU='])).toThrow(/lists no part IDs/);
    expect(() => parsePartsFlags(['abc'])).toThrow(/CATEGORY=id/);
  });
});
