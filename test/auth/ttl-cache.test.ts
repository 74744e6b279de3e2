import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../src/auth/ttl-cache.js';

describe('TtlCache', () => {
  it('forgets entries after their time to live', () => {
    const c = new TtlCache<string, number>(10, 1_000);
    c.set('a', 1, 0);
    expect(c.get('a', 999)).toBe(1);
    expect(c.get('a', 1_000)).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const c = new TtlCache<string, number>(2, 60_000);
    c.set('a', 1, 0);
    c.set('b', 2, 0);
    expect(c.get('a', 1)).toBe(1); // a is now the most recently used
    c.set('c', 3, 2);
    expect(c.size).toBe(2);
    expect(c.get('b', 3)).toBeUndefined();
    expect(c.get('a', 3)).toBe(1);
    expect(c.get('c', 3)).toBe(3);
  });
});
