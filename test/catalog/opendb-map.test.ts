import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import { mapOpenDbRecord, partIdFromOpenDbId } from '../../src/catalog/opendb-map.js';
import type { Category, SpecsByCategory } from '../../src/model/part.js';
import { FULL_TARBALL, requireShared, sampleRecords } from '../helpers/opendb-data.js';

const HEX = /^#[0-9a-f]{6}$/i;
const records = sampleRecords();

/** Sane ranges per category: what the renderer can draw without special cases. */
function checkSpecs(category: Category, s: SpecsByCategory[Category]): void {
  switch (category) {
    case 'PCCase': {
      const c = s as SpecsByCategory['PCCase'];
      expect(['E-ATX', 'ATX', 'Micro ATX', 'Mini-ITX']).toContain(c.maxBoard);
      for (const mm of [c.widthMm, c.heightMm, c.depthMm]) expect(mm).toBeGreaterThanOrEqual(80), expect(mm).toBeLessThanOrEqual(1000);
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

describe('mapOpenDbRecord over every sample record', () => {
  it('reads all nine categories of the sample', () => {
    expect(new Set(records.map((r) => r.category)).size).toBe(9);
    expect(records.length).toBeGreaterThanOrEqual(9 * 200);
  });

  it('maps every record without throwing, with specs in sane ranges', () => {
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
  });

  it('derives the GPU fan count from cooling strings', () => {
    const gpus = records.filter((r) => r.category === 'GPU');
    const withCooling = (s: string) => gpus.filter((g) => (g.record as { cooling?: unknown }).cooling === s);
    for (const [cooling, fans] of [['3 Fans', 3], ['2 Fans', 2], ['1 Fan', 1]] as const) {
      const list = withCooling(cooling);
      expect(list.length, cooling).toBeGreaterThan(0);
      for (const g of list) {
        const m = mapOpenDbRecord('GPU', g.record);
        expect(m.ok && m.specs.fanCount).toBe(fans);
      }
    }
  });
});

describe('mapOpenDbRecord on messy records', () => {
  const base = { opendb_id: '00000000-0000-4000-8000-000000000000', metadata: { name: 'Test Part' } };

  it('is unusable only without an object or a name', () => {
    expect(mapOpenDbRecord('GPU', null)).toEqual({ ok: false, reason: 'record is not a JSON object' });
    expect(mapOpenDbRecord('GPU', [1, 2])).toMatchObject({ ok: false });
    expect(mapOpenDbRecord('GPU', { metadata: { name: '  ' } })).toMatchObject({ ok: false, reason: 'record has no metadata.name' });
    expect(mapOpenDbRecord('GPU', { metadata: { name: 'Bare GPU' } })).toMatchObject({ ok: true });
  });

  it('GPU: cooling strings, mm slot widths, missing length', () => {
    const gpu = (extra: object) => {
      const m = mapOpenDbRecord('GPU', { ...base, ...extra });
      if (!m.ok) throw new Error(m.reason);
      return m.specs;
    };
    expect(gpu({ cooling: '3 Fans', length: 320.5, total_slot_width: 2.7 })).toMatchObject({ fanCount: 3, lengthMm: 321, slotWidth: 2.5 });
    expect(gpu({ cooling: 'Blower', length: null })).toMatchObject({ fanCount: 1, lengthMm: 175 });
    // specs are stored as the stage draws them (model/normalize-specs.ts), and it has no fanless card yet
    expect(gpu({ cooling: 'Passive' }).fanCount).toBe(2);
    expect(gpu({ cooling: null, length: 310 }).fanCount).toBe(3);
    expect(gpu({ total_slot_width: 55.6, cooling: '2 Fans' }).slotWidth).toBe(2.5);
    expect(gpu({ total_slot_width: 61, cooling: '2 Fans' }).slotWidth).toBe(3);
    expect(gpu({ total_slot_width: 0, cooling: '3 Fans' }).slotWidth).toBe(2.5);
    expect(gpu({ color: ['WHITE', 'GREY'], lighting: ['ARGB'] })).toMatchObject({ color: '#eeeff1', rgb: true });
    expect(gpu({ chipset_manufacturer: 'AMD' }).brand).toBe('AMD');
  });

  it('PCCase: type, side panel strings, dimension strings, colours from the name', () => {
    const pc = (extra: object, name = 'Test Case') => {
      const m = mapOpenDbRecord('PCCase', { ...base, metadata: { name }, ...extra });
      if (!m.ok) throw new Error(m.reason);
      return m.specs;
    };
    const itx = pc({ form_factor: 'Mini ITX Desktop', side_panel: 'Tinted Tempered Glass', color: [] }, 'Tiny Box White');
    expect(itx).toMatchObject({ maxBoard: 'Mini-ITX', sidePanel: 'glass', color: '#eeeff1' });
    expect(itx.heightMm).toBeLessThan(itx.widthMm);
    const mid = pc({ form_factor: 'ATX Mid Tower', side_panel: 'Mesh', dimensions: '413 x 217 x 453' });
    expect(mid).toMatchObject({ maxBoard: 'ATX', sidePanel: 'mesh', widthMm: 217, heightMm: 453, depthMm: 413 });
    expect(pc({ form_factor: 'MicroATX Mini Tower', side_panel: 'Steel' })).toMatchObject({ maxBoard: 'Micro ATX', sidePanel: 'solid' });
    expect(pc({ form_factor: 'ATX Full Tower', supported_motherboard_form_factors: ['EATX', 'ATX'] }).maxBoard).toBe('E-ATX');
    expect(pc({ has_transparent_side_panel: true }).sidePanel).toBe('glass');
    expect(pc({ dimensions_mm: { width: 230, height: 480, depth: 470 }, max_video_card_length: 9999 }).maxGpuLengthMm).toBeLessThanOrEqual(450);
  });

  it('CPUCooler: radiator size from the name when missing', () => {
    const m = mapOpenDbRecord('CPUCooler', { ...base, metadata: { name: 'Frosty Liquid 280mm ARGB' }, water_cooled: true, radiator_size: null });
    expect(m).toMatchObject({ ok: true, specs: { type: 'liquid', radiatorMm: 280, fanSizeMm: 140, fanCount: 2, rgb: true } });
    const air = mapOpenDbRecord('CPUCooler', { ...base, metadata: { name: 'Tower 140 Air 53mm' }, water_cooled: true, height: 158 });
    expect(air).toMatchObject({ ok: true, specs: { type: 'air', radiatorMm: 0, heightMm: 158 } });
  });

  it('RAM, Storage, PSU, CaseFan', () => {
    expect(mapOpenDbRecord('RAM', { ...base, modules: { quantity: 4, capacity_gb: 8 }, rgb: true })).toMatchObject({
      specs: { modules: 4, capacityGb: 32, rgb: true },
    });
    expect(mapOpenDbRecord('Storage', { ...base, type: 'HDD', form_factor: '3.5"', capacity: 4000 })).toMatchObject({
      specs: { formFactor: '3.5', kind: 'HDD', capacityGb: 4000 },
    });
    expect(mapOpenDbRecord('Storage', { ...base, type: 'SSD', form_factor: 'M.2-2280' })).toMatchObject({ specs: { formFactor: 'M.2' } });
    // "Gold" is the efficiency rating, not the colour
    expect(mapOpenDbRecord('PSU', { ...base, metadata: { name: 'Acme Prime Gold 750W SFX 80+ Gold' }, color: [] })).toMatchObject({
      specs: { formFactor: 'SFX', wattage: 750, color: '#1b1c1e', lengthMm: 100 },
    });
    expect(mapOpenDbRecord('CaseFan', { ...base, metadata: { name: 'Breeze 120mm ARGB Pack of 3' }, size: null, quantity: null })).toMatchObject({
      specs: { sizeMm: 120, quantity: 3, rgb: true },
    });
    expect(mapOpenDbRecord('CaseFan', { ...base, size: 360, quantity: 1 })).toMatchObject({ specs: { sizeMm: 120, quantity: 3 } });
  });
});

describe('partIdFromOpenDbId', () => {
  it('is a stable 9-character lowercase base36 string', () => {
    const id = partIdFromOpenDbId('0000caee-142c-48f6-99be-9c6f4dd18845');
    expect(id).toMatch(/^[a-z0-9]{9}$/);
    expect(partIdFromOpenDbId('0000CAEE-142C-48F6-99BE-9C6F4DD18845')).toBe(id);
    // pinned: changing the derivation would orphan every saved build and cached render
    expect(id).toBe('h30zfqrvs');
  });

  it('is unique over the sample and never a demo ID', () => {
    const ids = records.map((r) => partIdFromOpenDbId((r.record as { opendb_id: string }).opendb_id));
    expect(new Set(ids).size).toBe(ids.length);
    const demo = new Set(DEMO_PARTS.map((p) => p.id));
    expect(ids.filter((id) => demo.has(id))).toEqual([]);
  });

  it('is unique over the full OpenDB data set', () => {
    // the file names are the opendb_ids (checked by the import test on the sample)
    const names = execFileSync('tar', ['tzf', requireShared(FULL_TARBALL)], { encoding: 'utf8', maxBuffer: 64 << 20 })
      .split('\n')
      .map((l) => /([0-9a-f-]{36})\.json$/.exec(l)?.[1])
      .filter((x): x is string => x !== undefined);
    expect(names.length).toBeGreaterThan(29_000);
    const ids = new Set(names.map(partIdFromOpenDbId));
    expect(ids.size).toBe(new Set(names).size);
    const demo = DEMO_PARTS.map((p) => p.id);
    expect(demo.filter((id) => ids.has(id))).toEqual([]);
  });
});
