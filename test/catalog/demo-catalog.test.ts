import { describe, expect, it } from 'vitest';
import { DEMO_BUILDS, DEMO_IDS, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import { CATEGORIES, type Part, type SpecsByCategory } from '../../src/model/part.js';
import { interactiveStateSchema } from '../../src/model/interactive-state.js';

const byId = new Map(DEMO_PARTS.map((p) => [p.id, p]));
const BOARD_RANK = { 'E-ATX': 4, ATX: 3, 'Micro ATX': 2, 'Mini-ITX': 1 } as const;

function one<C extends keyof SpecsByCategory>(parts: Partial<Record<string, string[]>>, c: C): Part<C> {
  const id = parts[c]![0]!;
  return byId.get(id) as Part<C>;
}

describe('demo catalog', () => {
  it('has at least 60 parts over all nine categories, unique 9-character IDs', () => {
    expect(DEMO_PARTS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(DEMO_PARTS.map((p) => p.category))).toEqual(new Set(CATEGORIES));
    for (const p of DEMO_PARTS) expect(p.id).toMatch(/^[a-z0-9]{9}$/);
    expect(byId.size).toBe(DEMO_PARTS.length);
    expect(new Set(Object.values(DEMO_IDS)).size).toBe(Object.keys(DEMO_IDS).length);
    for (const id of Object.values(DEMO_IDS)) expect(byId.has(id), id).toBe(true);
  });

  it('varies what the renderer shows', () => {
    const specs = <C extends keyof SpecsByCategory>(c: C) =>
      DEMO_PARTS.filter((p) => p.category === c).map((p) => p.specs as SpecsByCategory[C]);
    expect(new Set(specs('PCCase').map((s) => s.maxBoard)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(specs('PCCase').map((s) => s.sidePanel))).toEqual(new Set(['glass', 'mesh', 'solid']));
    expect(new Set(specs('Motherboard').map((s) => s.formFactor)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(specs('CPUCooler').map((s) => s.radiatorMm))).toEqual(new Set([0, 120, 240, 280, 360]));
    const gpus = specs('GPU');
    expect(Math.min(...gpus.map((g) => g.lengthMm))).toBeLessThanOrEqual(170);
    expect(Math.max(...gpus.map((g) => g.lengthMm))).toBeGreaterThanOrEqual(340);
    expect(new Set(gpus.map((g) => g.fanCount))).toEqual(new Set([1, 2, 3]));
    expect(new Set(specs('RAM').map((r) => r.modules))).toEqual(new Set([1, 2, 4]));
    expect(new Set(specs('Storage').map((s) => s.formFactor))).toEqual(new Set(['M.2', '2.5', '3.5']));
    expect(new Set(specs('PSU').map((s) => s.formFactor)).has('SFX')).toBe(true);
    expect(new Set(specs('CaseFan').map((s) => `${s.sizeMm}x${s.quantity}`)).size).toBeGreaterThanOrEqual(4);
  });

  it('has at least 6 builds with unique share codes, 2 or more with a valid saved state', () => {
    expect(DEMO_BUILDS.length).toBeGreaterThanOrEqual(6);
    expect(new Set(DEMO_BUILDS.map((b) => b.shareCode)).size).toBe(DEMO_BUILDS.length);
    for (const b of DEMO_BUILDS) expect(b.shareCode).toMatch(/^[A-Za-z0-9_-]{3,64}$/);
    const withState = DEMO_BUILDS.filter((b) => b.interactiveState);
    expect(withState.length).toBeGreaterThanOrEqual(2);
    for (const b of withState) {
      const parsed = interactiveStateSchema.safeParse(b.interactiveState);
      expect(parsed.success, b.shareCode).toBe(true);
      for (const f of b.interactiveState!.fans ?? []) {
        if (f.partId) {
          expect(byId.get(f.partId)?.category).toBe('CaseFan');
          expect(b.parts.CaseFan, `${b.shareCode} lists its state fan`).toContain(f.partId);
        }
      }
    }
  });

  it('builds are complete, reference existing parts of the right category, and fit together', () => {
    for (const b of DEMO_BUILDS) {
      expect(Object.keys(b.parts).sort(), b.shareCode).toEqual([...CATEGORIES].sort());
      for (const [category, ids] of Object.entries(b.parts)) {
        for (const id of ids!) expect(byId.get(id)?.category, `${b.shareCode} ${category} ${id}`).toBe(category);
      }
      const pcCase = one(b.parts, 'PCCase').specs;
      const board = one(b.parts, 'Motherboard').specs;
      const cpu = one(b.parts, 'CPU').specs;
      const cooler = one(b.parts, 'CPUCooler').specs;
      const gpu = one(b.parts, 'GPU').specs;
      const psu = one(b.parts, 'PSU').specs;
      expect(BOARD_RANK[board.formFactor], `${b.shareCode} board fits the case`).toBeLessThanOrEqual(
        BOARD_RANK[pcCase.maxBoard],
      );
      expect(cpu.socket, `${b.shareCode} socket`).toBe(board.socket);
      expect(gpu.lengthMm, `${b.shareCode} GPU length`).toBeLessThanOrEqual(pcCase.maxGpuLengthMm);
      expect(cooler.heightMm, `${b.shareCode} cooler height`).toBeLessThan(pcCase.widthMm);
      if (cooler.type === 'liquid') expect(pcCase.maxBoard === 'Mini-ITX' && cooler.radiatorMm > 240).toBe(false);
      if (pcCase.maxBoard === 'Mini-ITX') expect(psu.formFactor).not.toBe('ATX');
      const ram = (b.parts.RAM ?? [])
        .map((id) => (byId.get(id) as Part<'RAM'>).specs.modules)
        .reduce((a, n) => a + n, 0);
      expect(ram, `${b.shareCode} sticks fit the slots`).toBeLessThanOrEqual(board.memorySlots);
    }
  });
});
