/**
 * What the catalog's OpenDB mapper must make of real records: specs in the ranges the renderer
 * draws without special cases. Used over the project's fixture and the optional larger data.
 */
import { expect } from 'vitest';
import { mapOpenDbRecord } from '../../src/catalog/opendb-map.js';
import type { Category, SpecsByCategory } from '../../src/model/part.js';
import type { OpenDbRecord } from './opendb-data.js';

const HEX = /^#[0-9a-f]{6}$/i;

/** lo <= v <= hi, as two expectations (each names the bound it breaks). */
function expectWithin(v: number, lo: number, hi: number): void {
  expect(v).toBeGreaterThanOrEqual(lo);
  expect(v).toBeLessThanOrEqual(hi);
}

/** Sane ranges per category: what the renderer can draw without special cases. */
export function checkSpecs(category: Category, s: SpecsByCategory[Category]): void {
  switch (category) {
    case 'PCCase': {
      const c = s as SpecsByCategory['PCCase'];
      expect(['E-ATX', 'ATX', 'Micro ATX', 'Mini-ITX']).toContain(c.maxBoard);
      for (const mm of [c.widthMm, c.heightMm, c.depthMm]) expectWithin(mm, 80, 1000);
      expect(['glass', 'mesh', 'solid']).toContain(c.sidePanel);
      expect(c.color).toMatch(HEX);
      expect(c.accentColor).toMatch(HEX);
      expectWithin(c.maxGpuLengthMm, 100, 600);
      expect(c.type.length).toBeGreaterThan(0);
      break;
    }
    case 'Motherboard': {
      const m = s as SpecsByCategory['Motherboard'];
      expect(['E-ATX', 'ATX', 'Micro ATX', 'Mini-ITX']).toContain(m.formFactor);
      expectWithin(m.memorySlots, 1, 16);
      expectWithin(m.pcieX16Slots, 1, 7);
      expect(m.color).toMatch(HEX);
      break;
    }
    case 'CPU': {
      const c = s as SpecsByCategory['CPU'];
      expect(['Intel', 'AMD', 'Other']).toContain(c.brand);
      expectWithin(c.cores, 1, 256);
      break;
    }
    case 'CPUCooler': {
      const c = s as SpecsByCategory['CPUCooler'];
      if (c.type === 'air') expect(c.radiatorMm).toBe(0);
      else expect([120, 140, 240, 280, 360, 420]).toContain(c.radiatorMm);
      // heightMm is the tower's: an AIO has none
      if (c.type === 'liquid') expect(c.heightMm).toBe(0);
      else expectWithin(c.heightMm, 20, 200);
      expectWithin(c.fanSizeMm, 40, 200);
      expectWithin(c.fanCount, 0, 4);
      expect(c.color).toMatch(HEX);
      break;
    }
    case 'GPU': {
      const g = s as SpecsByCategory['GPU'];
      expectWithin(g.lengthMm, 100, 420);
      expectWithin(g.slotWidth, 1, 5);
      expect(g.slotWidth * 2).toBe(Math.round(g.slotWidth * 2));
      expectWithin(g.fanCount, 0, 4);
      expect(g.color).toMatch(HEX);
      break;
    }
    case 'RAM': {
      const r = s as SpecsByCategory['RAM'];
      expectWithin(r.modules, 1, 8);
      expect(r.capacityGb).toBeGreaterThanOrEqual(1);
      expectWithin(r.heightMm, 25, 70);
      expect(r.color).toMatch(HEX);
      break;
    }
    case 'Storage': {
      const st = s as SpecsByCategory['Storage'];
      expect(['M.2', '2.5', '3.5']).toContain(st.formFactor);
      expect(['SSD', 'HDD']).toContain(st.kind);
      expect(st.capacityGb).toBeGreaterThan(0);
      break;
    }
    case 'PSU': {
      const p = s as SpecsByCategory['PSU'];
      expect(['ATX', 'SFX', 'SFX-L', 'TFX']).toContain(p.formFactor);
      expectWithin(p.lengthMm, 60, 300);
      expect(p.wattage).toBeGreaterThanOrEqual(50);
      expect(p.color).toMatch(HEX);
      break;
    }
    case 'CaseFan': {
      const f = s as SpecsByCategory['CaseFan'];
      expectWithin(f.sizeMm, 20, 230);
      expectWithin(f.quantity, 1, 20);
      expect(f.color).toMatch(HEX);
      break;
    }
  }
}

/** Every record maps (names the file when one does not), its specs in range and JSON-safe. */
export function expectRecordsMap(records: readonly OpenDbRecord[]): void {
  for (const { category, file, record } of records) {
    const m = mapOpenDbRecord(category, record);
    if (!m.ok) throw new Error(`${category}/${file}: ${m.reason}`);
    expect(m.name.length, file).toBeGreaterThan(0);
    // JSON round trip: what goes into jsonb comes back equal (no undefined, NaN or Infinity)
    expect(JSON.parse(JSON.stringify(m.specs))).toEqual(m.specs);
    try {
      checkSpecs(category, m.specs);
    } catch (err) {
      throw new Error(`${category}/${file} ${JSON.stringify(m.specs)}: ${(err as Error).message}`);
    }
  }
}
