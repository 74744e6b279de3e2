/**
 * What the catalog's OpenDB mapper must make of real records: specs in the ranges the renderer
 * draws without special cases. Used over the project's fixture and the optional larger data.
 */
import { expect } from 'vitest';
import { mapOpenDbRecord } from '../../src/catalog/opendb-map.js';
import type { Category, SpecsByCategory } from '../../src/model/part.js';
import type { OpenDbRecord } from './opendb-data.js';

const HEX = /^#[0-9a-f]{6}$/i;

/** Sane ranges per category: what the renderer can draw without special cases. */
export function checkSpecs(category: Category, s: SpecsByCategory[Category]): void {
  switch (category) {
    case 'PCCase': {
      const c = s as SpecsByCategory['PCCase'];
      expect(['E-ATX', 'ATX', 'Micro ATX', 'Mini-ITX']).toContain(c.maxBoard);
      for (const mm of [c.widthMm, c.heightMm, c.depthMm])
        expect(mm).toBeGreaterThanOrEqual(80), expect(mm).toBeLessThanOrEqual(1000);
      expect(['glass', 'mesh', 'solid']).toContain(c.sidePanel);
      expect(c.color).toMatch(HEX);
      expect(c.accentColor).toMatch(HEX);
      expect(c.maxGpuLengthMm).toBeGreaterThanOrEqual(100);
      expect(c.maxGpuLengthMm).toBeLessThanOrEqual(600);
      expect(c.type.length).toBeGreaterThan(0);
      break;
    }
    case 'Motherboard': {
      const m = s as SpecsByCategory['Motherboard'];
      expect(['E-ATX', 'ATX', 'Micro ATX', 'Mini-ITX']).toContain(m.formFactor);
      expect(m.memorySlots).toBeGreaterThanOrEqual(1);
      expect(m.memorySlots).toBeLessThanOrEqual(16);
      expect(m.pcieX16Slots).toBeGreaterThanOrEqual(1);
      expect(m.pcieX16Slots).toBeLessThanOrEqual(7);
      expect(m.color).toMatch(HEX);
      break;
    }
    case 'CPU': {
      const c = s as SpecsByCategory['CPU'];
      expect(['Intel', 'AMD', 'Other']).toContain(c.brand);
      expect(c.cores).toBeGreaterThanOrEqual(1);
      expect(c.cores).toBeLessThanOrEqual(256);
      break;
    }
    case 'CPUCooler': {
      const c = s as SpecsByCategory['CPUCooler'];
      if (c.type === 'air') expect(c.radiatorMm).toBe(0);
      else expect([120, 140, 240, 280, 360, 420]).toContain(c.radiatorMm);
      // heightMm is the tower's: an AIO has none
      if (c.type === 'liquid') expect(c.heightMm).toBe(0);
      else expect(c.heightMm).toBeGreaterThanOrEqual(20), expect(c.heightMm).toBeLessThanOrEqual(200);
      expect(c.fanSizeMm).toBeGreaterThanOrEqual(40);
      expect(c.fanSizeMm).toBeLessThanOrEqual(200);
      expect(c.fanCount).toBeGreaterThanOrEqual(0);
      expect(c.fanCount).toBeLessThanOrEqual(4);
      expect(c.color).toMatch(HEX);
      break;
    }
    case 'GPU': {
      const g = s as SpecsByCategory['GPU'];
      expect(g.lengthMm).toBeGreaterThanOrEqual(100);
      expect(g.lengthMm).toBeLessThanOrEqual(420);
      expect(g.slotWidth).toBeGreaterThanOrEqual(1);
      expect(g.slotWidth).toBeLessThanOrEqual(5);
      expect(g.slotWidth * 2).toBe(Math.round(g.slotWidth * 2));
      expect(g.fanCount).toBeGreaterThanOrEqual(0);
      expect(g.fanCount).toBeLessThanOrEqual(4);
      expect(g.color).toMatch(HEX);
      break;
    }
    case 'RAM': {
      const r = s as SpecsByCategory['RAM'];
      expect(r.modules).toBeGreaterThanOrEqual(1);
      expect(r.modules).toBeLessThanOrEqual(8);
      expect(r.capacityGb).toBeGreaterThanOrEqual(1);
      expect(r.heightMm).toBeGreaterThanOrEqual(25);
      expect(r.heightMm).toBeLessThanOrEqual(70);
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
      expect(p.lengthMm).toBeGreaterThanOrEqual(60);
      expect(p.lengthMm).toBeLessThanOrEqual(300);
      expect(p.wattage).toBeGreaterThanOrEqual(50);
      expect(p.color).toMatch(HEX);
      break;
    }
    case 'CaseFan': {
      const f = s as SpecsByCategory['CaseFan'];
      expect(f.sizeMm).toBeGreaterThanOrEqual(20);
      expect(f.sizeMm).toBeLessThanOrEqual(230);
      expect(f.quantity).toBeGreaterThanOrEqual(1);
      expect(f.quantity).toBeLessThanOrEqual(20);
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
