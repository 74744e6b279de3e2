import { describe, expect, it } from 'vitest';
import { checkRange, parseRangeHeader } from '../../src/storage/byte-range.js';

describe('parseRangeHeader', () => {
  it.each([
    [undefined, 100, { kind: 'full' }],
    ['bytes=0-0', 100, { kind: 'partial', range: { start: 0, end: 0 } }],
    ['bytes=10-', 100, { kind: 'partial', range: { start: 10, end: 99 } }],
    ['bytes=-1', 100, { kind: 'partial', range: { start: 99, end: 99 } }],
    ['bytes=50-500', 100, { kind: 'partial', range: { start: 50, end: 99 } }],
    ['Bytes = 1-2', 100, { kind: 'partial', range: { start: 1, end: 2 } }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=-5', 0, { kind: 'unsatisfiable' }],
    ['bytes=0-1,3-4', 100, { kind: 'full' }],
    ['bytes=4-3', 100, { kind: 'full' }],
    ['bytes=-', 100, { kind: 'full' }],
    ['bytes=a-b', 100, { kind: 'full' }],
    ['none', 100, { kind: 'full' }],
  ])('%j of %d bytes', (header, size, expected) => {
    expect(parseRangeHeader(header, size)).toEqual(expected);
  });
});

describe('checkRange', () => {
  it('accepts ranges inside the size and rejects the rest', () => {
    expect(() => checkRange({ start: 0, end: 9 }, 10)).not.toThrow();
    expect(() => checkRange({ start: 0, end: 10 }, 10)).toThrow(RangeError);
    expect(() => checkRange({ start: -1, end: 3 }, 10)).toThrow(RangeError);
    expect(() => checkRange({ start: 1.5, end: 3 }, 10)).toThrow(RangeError);
  });
});
