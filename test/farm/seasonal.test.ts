/** Seeded particles whose motion loops over one turn (frame N equals frame 0). */
import { describe, expect, it } from 'vitest';
import { buildPetals, buildSnow } from '../../farm/src/scene/seasonal.js';
import { createRng, hashString } from '../../farm/src/util/prng.js';

const volume = { radius: 0.6, minY: 0, maxY: 0.8 };

describe('createRng', () => {
  it('is deterministic per seed and spread over [0, 1)', () => {
    const a = createRng(42);
    const b = createRng(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 1);
    expect(createRng(43)()).not.toBe(createRng(42)());
    expect(hashString('abc')).toBe(hashString('abc'));
  });
});

describe.each([
  ['snow', buildSnow],
  ['petals', buildPetals],
] as const)('%s', (_name, build) => {
  it('loops seamlessly: frame `frames` equals frame 0, for any frame count', () => {
    for (const frames of [72, 120, 144, 7]) {
      const fx = build(volume, 0);
      const first = fx.positionsAt(0, frames);
      expect(fx.positionsAt(frames, frames)).toEqual(first);
      expect(fx.positionsAt(2 * frames + 3, frames)).toEqual(fx.positionsAt(3, frames));
      expect(fx.positionsAt(1, frames)).not.toEqual(first);
      fx.dispose();
    }
  });

  it('is the same for two builds (seeded, no Math.random)', () => {
    expect(build(volume, 0).positionsAt(17, 120)).toEqual(build(volume, 0).positionsAt(17, 120));
  });

  it('keeps particles in the volume', () => {
    const p = build(volume, 0).positionsAt(33, 120);
    for (let i = 0; i < p.length; i += 3) {
      expect(Math.hypot(p[i]!, p[i + 2]!)).toBeLessThan(volume.radius + 0.05);
      expect(p[i + 1]!).toBeGreaterThanOrEqual(volume.minY);
      expect(p[i + 1]!).toBeLessThanOrEqual(volume.maxY);
    }
  });

  it('update() poses the drawn particles', () => {
    const fx = build(volume, 0);
    expect(() => fx.update(5, 120)).not.toThrow();
  });
});
