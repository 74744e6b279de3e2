import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import { mapOpenDbRecord, partIdFromOpenDbId } from '../../src/catalog/opendb-map.js';
import { FIXTURE_DIR, fixtureCounts, fixtureRecords } from '../helpers/opendb-data.js';
import { expectRecordsMap } from '../helpers/opendb-spec-ranges.js';

const records = fixtureRecords();

describe('mapOpenDbRecord over every fixture record', () => {
  it('reads all nine categories of the fixture, 15-25 real records each', () => {
    const counts = fixtureCounts();
    expect(Object.keys(counts)).toHaveLength(9);
    for (const [category, n] of Object.entries(counts))
      expect(n, category).toBeGreaterThanOrEqual(15), expect(n, category).toBeLessThanOrEqual(25);
    expect(records).toHaveLength(Object.values(counts).reduce((a, b) => a + b, 0));
  });

  it("ships with OpenDB's licence and the attribution ODC-By requires", () => {
    expect(fs.readFileSync(path.join(FIXTURE_DIR, 'LICENSE.txt'), 'utf8')).toContain(
      'ODC Attribution License (ODC-By)',
    );
    expect(fs.readFileSync(path.join(FIXTURE_DIR, 'README.md'), 'utf8')).toContain(
      'BuildCores OpenDB, https://github.com/buildcores/buildcores-open-db',
    );
  });

  it('maps every record without throwing, with specs in sane ranges', () => {
    expectRecordsMap(records);
  });

  it('derives the GPU fan count from cooling strings', () => {
    const gpus = records.filter((r) => r.category === 'GPU');
    const withCooling = (s: string) => gpus.filter((g) => (g.record as { cooling?: unknown }).cooling === s);
    for (const [cooling, fans] of [
      ['3 Fans', 3],
      ['2 Fans', 2],
      ['1 Fan', 1],
    ] as const) {
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
    expect(mapOpenDbRecord('GPU', { metadata: { name: '  ' } })).toMatchObject({
      ok: false,
      reason: 'record has no metadata.name',
    });
    expect(mapOpenDbRecord('GPU', { metadata: { name: 'Bare GPU' } })).toMatchObject({ ok: true });
  });

  it('GPU: cooling strings, mm slot widths, missing length', () => {
    const gpu = (extra: object) => {
      const m = mapOpenDbRecord('GPU', { ...base, ...extra });
      if (!m.ok) throw new Error(m.reason);
      return m.specs;
    };
    expect(gpu({ cooling: '3 Fans', length: 320.5, total_slot_width: 2.7 })).toMatchObject({
      fanCount: 3,
      lengthMm: 321,
      slotWidth: 2.5,
    });
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
    const itx = pc(
      { form_factor: 'Mini ITX Desktop', side_panel: 'Tinted Tempered Glass', color: [] },
      'Tiny Box White',
    );
    expect(itx).toMatchObject({ maxBoard: 'Mini-ITX', sidePanel: 'glass', color: '#eeeff1' });
    expect(itx.heightMm).toBeLessThan(itx.widthMm);
    const mid = pc({ form_factor: 'ATX Mid Tower', side_panel: 'Mesh', dimensions: '413 x 217 x 453' });
    expect(mid).toMatchObject({ maxBoard: 'ATX', sidePanel: 'mesh', widthMm: 217, heightMm: 453, depthMm: 413 });
    expect(pc({ form_factor: 'MicroATX Mini Tower', side_panel: 'Steel' })).toMatchObject({
      maxBoard: 'Micro ATX',
      sidePanel: 'solid',
    });
    expect(pc({ form_factor: 'ATX Full Tower', supported_motherboard_form_factors: ['EATX', 'ATX'] }).maxBoard).toBe(
      'E-ATX',
    );
    expect(pc({ has_transparent_side_panel: true }).sidePanel).toBe('glass');
    expect(
      pc({ dimensions_mm: { width: 230, height: 480, depth: 470 }, max_video_card_length: 9999 }).maxGpuLengthMm,
    ).toBeLessThanOrEqual(450);
  });

  it('CPUCooler: radiator size from the name when missing', () => {
    const m = mapOpenDbRecord('CPUCooler', {
      ...base,
      metadata: { name: 'Frosty Liquid 280mm ARGB' },
      water_cooled: true,
      radiator_size: null,
    });
    expect(m).toMatchObject({
      ok: true,
      specs: { type: 'liquid', radiatorMm: 280, fanSizeMm: 140, fanCount: 2, rgb: true },
    });
    const air = mapOpenDbRecord('CPUCooler', {
      ...base,
      metadata: { name: 'Tower 140 Air 53mm' },
      water_cooled: true,
      height: 158,
    });
    expect(air).toMatchObject({ ok: true, specs: { type: 'air', radiatorMm: 0, heightMm: 158 } });
  });

  it('RAM, Storage, PSU, CaseFan', () => {
    expect(mapOpenDbRecord('RAM', { ...base, modules: { quantity: 4, capacity_gb: 8 }, rgb: true })).toMatchObject({
      specs: { modules: 4, capacityGb: 32, rgb: true },
    });
    expect(mapOpenDbRecord('Storage', { ...base, type: 'HDD', form_factor: '3.5"', capacity: 4000 })).toMatchObject({
      specs: { formFactor: '3.5', kind: 'HDD', capacityGb: 4000 },
    });
    expect(mapOpenDbRecord('Storage', { ...base, type: 'SSD', form_factor: 'M.2-2280' })).toMatchObject({
      specs: { formFactor: 'M.2' },
    });
    // "Gold" is the efficiency rating, not the colour
    expect(
      mapOpenDbRecord('PSU', { ...base, metadata: { name: 'Acme Prime Gold 750W SFX 80+ Gold' }, color: [] }),
    ).toMatchObject({
      specs: { formFactor: 'SFX', wattage: 750, color: '#1b1c1e', lengthMm: 100 },
    });
    expect(
      mapOpenDbRecord('CaseFan', {
        ...base,
        metadata: { name: 'Breeze 120mm ARGB Pack of 3' },
        size: null,
        quantity: null,
      }),
    ).toMatchObject({
      specs: { sizeMm: 120, quantity: 3, rgb: true },
    });
    expect(mapOpenDbRecord('CaseFan', { ...base, size: 360, quantity: 1 })).toMatchObject({
      specs: { sizeMm: 120, quantity: 3 },
    });
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

  it('is unique over the fixture and never a demo ID', () => {
    const ids = records.map((r) => partIdFromOpenDbId((r.record as { opendb_id: string }).opendb_id));
    expect(new Set(ids).size).toBe(ids.length);
    const demo = new Set(DEMO_PARTS.map((p) => p.id));
    expect(ids.filter((id) => demo.has(id))).toEqual([]);
  });
});
