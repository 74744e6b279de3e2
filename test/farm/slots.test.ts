/** Fan slots derived from the case size and the fan size. */
import { describe, expect, it } from 'vitest';
import { computeCaseLayout } from '../../farm/src/layout/case-layout.js';
import { normalizeSpecs } from '../../src/model/normalize-specs.js';
import { deriveSlots, parseSlotId, type Panel } from '../../farm/src/layout/slots.js';
import type { BoardFormFactor, CaseSpecs } from '../../src/model/part.js';

function layoutOf(size: [number, number, number], board: BoardFormFactor = 'ATX', shroud = true) {
  const pcCase: CaseSpecs = {
    ...normalizeSpecs('PCCase', { specs: {} as never }, []),
    widthMm: size[0],
    heightMm: size[1],
    depthMm: size[2],
    psuShroud: shroud,
  };
  const mb = { ...normalizeSpecs('Motherboard', { specs: {} as never }, []), formFactor: board };
  return computeCaseLayout(pcCase, mb, null, []);
}

function counts(
  size: [number, number, number],
  fan: number,
  board: BoardFormFactor = 'ATX',
  shroud = true,
): Record<Panel, number> {
  const c: Record<Panel, number> = { front: 0, top: 0, rear: 0, bottom: 0, side: 0 };
  for (const s of deriveSlots(layoutOf(size, board, shroud), fan)) c[s.panel]++;
  return c;
}

describe('deriveSlots', () => {
  it('a 230x480x460 mid tower holds 3 front, 3 top and 1 rear 120 mm fan', () => {
    const c = counts([230, 480, 460], 120);
    expect(c.front).toBe(3);
    expect(c.top).toBe(3);
    expect(c.rear).toBe(1);
  });

  it('holds fewer 140 mm fans than 120 mm fans', () => {
    const a = counts([230, 480, 460], 120);
    const b = counts([230, 480, 460], 140);
    expect(b.top).toBeLessThan(a.top);
    expect(b.front + b.top).toBeLessThanOrEqual(a.front + a.top);
  });

  it('a full tower holds more than a mini-ITX case', () => {
    const full = counts([240, 560, 540], 120);
    const itx = counts([200, 340, 360], 120, 'Mini-ITX');
    const total = (c: Record<Panel, number>) => Object.values(c).reduce((a, b) => a + b, 0);
    expect(total(full)).toBeGreaterThan(total(itx));
    expect(itx.front).toBeGreaterThanOrEqual(1);
    expect(full.front).toBeGreaterThanOrEqual(3);
  });

  it('has no rear slot for 200 mm fans', () => {
    expect(counts([240, 560, 540], 200).rear).toBe(0);
  });

  it('a deep case gets side slots in front of the board; a shallow one does not', () => {
    expect(counts([240, 480, 560], 120).side).toBeGreaterThan(0);
    expect(counts([230, 480, 400], 120).side).toBe(0);
  });

  it('a case without a shroud gets bottom slots in front of the PSU', () => {
    expect(counts([230, 480, 460], 120, 'ATX', false).bottom).toBeGreaterThan(0);
  });

  it('names slots <panel>-<n> from 1, at most 9 per panel, all inside the case', () => {
    const layout = layoutOf([240, 560, 540]);
    for (const size of [80, 92, 120, 140, 200]) {
      for (const s of deriveSlots(layout, size)) {
        expect(parseSlotId(s.id)).toEqual({ panel: s.panel, index: s.index });
        expect(s.index).toBeLessThanOrEqual(9);
        const [x, y, z] = s.center;
        expect(Math.abs(x) + (s.sizeMm / 2) * (s.panel === 'side' ? 0 : 1)).toBeLessThanOrEqual(
          layout.width / 2 + 0.01,
        );
        expect(y).toBeGreaterThan(0);
        expect(y).toBeLessThan(layout.height);
        expect(Math.abs(z)).toBeLessThan(layout.depth / 2);
      }
    }
  });

  it('slots on one panel do not overlap', () => {
    for (const s of [120, 140]) {
      const slots = deriveSlots(layoutOf([230, 480, 460]), s);
      for (const a of slots)
        for (const b of slots) {
          if (a === b || a.panel !== b.panel) continue;
          const d = Math.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1], a.center[2] - b.center[2]);
          expect(d).toBeGreaterThanOrEqual(s);
        }
    }
  });

  it('survives absurd fan sizes', () => {
    const layout = layoutOf([230, 480, 460]);
    for (const size of [NaN, 0, -5, 1e9]) expect(() => deriveSlots(layout, size)).not.toThrow();
  });
});
