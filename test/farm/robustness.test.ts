/**
 * Every model builds from any data: every OpenDB sample record through the catalog's mapper,
 * and hand-made hostile specs (NaN, zero, negative, huge, wrong types, missing fields).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildBuildGroup, buildPartModel } from '../../farm/src/build-scene.js';
import type { StageBuild } from '../../src/model/stage-contract.js';
import { mapOpenDbRecord } from '../../src/catalog/opendb-map.js';
import { CATEGORIES, type Category, type Part } from '../../src/model/part.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { boxOf, finite } from '../helpers/scene.js';
import { requireShared, SAMPLE_DIR, sampleRecords } from '../helpers/opendb-data.js';

const TRIANGLE_BUDGET = 150_000;
const base = demoStageBuild('DEMO-GLASS');

/** The sample records of a category; throws (never skips) when the shared data is missing. */
let all: ReturnType<typeof sampleRecords> | null = null;
function records(category: Category): { file: string; record: unknown }[] {
  all ??= sampleRecords();
  return all.filter((r) => r.category === category);
}

/** The base build with `part` as the only part of its category. */
function withPart(part: Part): StageBuild {
  return { ...base, parts: { ...base.parts, [part.category]: [part] } };
}

describe('every OpenDB sample record', () => {
  it('comes from ../shared beside the repository, and its absence fails the run', () => {
    const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    expect(SAMPLE_DIR).toBe(path.resolve(repo, '../shared/opendb/sample'));
    expect(() => requireShared(path.join(repo, '../shared/opendb/no-such-sample'))).toThrow(/^shared test data missing: .*no-such-sample/);
  });

  for (const category of CATEGORIES) {
    it(`${category}: maps, models alone and inside a full build`, () => {
      const list = records(category);
      expect(list.length).toBeGreaterThan(0);
      let built = 0;
      for (const { file, record } of list) {
        const mapped = mapOpenDbRecord(category, record);
        if (!mapped.ok) continue; // the mapper's own tests cover unusable records
        const part = { id: file.slice(0, 9), category, name: mapped.name, specs: mapped.specs } as Part;
        const alone = buildPartModel(part);
        expect(finite(boxOf(alone)), `${category}/${file} alone`).toBe(true);
        const full = buildBuildGroup(withPart(part));
        expect(finite(boxOf(full.group)), `${category}/${file} in a build`).toBe(true);
        expect(full.triangles).toBeLessThan(TRIANGLE_BUDGET);
        built++;
      }
      expect(built).toBeGreaterThan(list.length * 0.9);
    });
  }
});

const HOSTILE_VALUES: unknown[] = [NaN, 0, -1, -1e9, 1e9, Infinity, -Infinity, null, undefined, 'abc', '', [], {}, true];

/** Every field of every category's specs set to each hostile value, one field at a time. */
function hostileSpecs(category: Category): unknown[] {
  const template = (base.parts[category]?.[0]?.specs ?? {}) as Record<string, unknown>;
  const out: unknown[] = [{}, null, undefined, 42, 'specs', [], { unknown: 1 }];
  for (const key of Object.keys(template)) for (const v of HOSTILE_VALUES) out.push({ ...template, [key]: v });
  // everything hostile at once
  for (const v of HOSTILE_VALUES) out.push(Object.fromEntries(Object.keys(template).map((k) => [k, v])));
  return out;
}

describe('hostile specs', () => {
  for (const category of CATEGORIES) {
    it(`${category}: never throws, stays finite and bounded`, () => {
      for (const specs of hostileSpecs(category)) {
        const part = { id: 'hostile', category, name: 'hostile', specs } as unknown as Part;
        const label = `${category} ${JSON.stringify(specs)}`;
        expect(finite(boxOf(buildPartModel(part))), label).toBe(true);
        const full = buildBuildGroup(withPart(part));
        const box = boxOf(full.group);
        expect(finite(box), label).toBe(true);
        // clamped: no part of a build is ever drawn larger than a metre
        expect(box.max.x - box.min.x, label).toBeLessThan(1000);
        expect(box.max.y - box.min.y, label).toBeLessThan(1000);
        expect(box.max.z - box.min.z, label).toBeLessThan(1000);
        expect(full.triangles).toBeLessThan(TRIANGLE_BUDGET);
      }
    });
  }

  it('reports replaced values as warnings', () => {
    const gpu = { id: 'bad-gpu', category: 'GPU', name: 'x', specs: { ...base.parts.GPU![0]!.specs, lengthMm: NaN } } as Part;
    const { warnings } = buildBuildGroup(withPart(gpu));
    expect(warnings.some((w) => w.includes('GPU bad-gpu') && w.includes('lengthMm'))).toBe(true);
  });
});

describe('hostile build shapes', () => {
  const shapes: unknown[] = [
    {},
    { parts: null, state: null },
    { parts: {}, state: null },
    { parts: { GPU: 'not a list', RAM: [null, 3, 'x'] }, state: 'nonsense' },
    { parts: { PCCase: [] }, state: { fans: 'x', radiator: 5, rgb: { color: 12 } } },
    { ...base, state: { fans: [{ slot: 'front-9' }, { slot: 'nowhere-1' }, { slot: 'top-1', partId: 'missing' }], radiator: { slot: 'side' }, rgb: { color: 'red', mode: 'off' } } },
    { parts: { ...base.parts, RAM: Array.from({ length: 12 }, () => base.parts.RAM![0]) }, state: null },
    { parts: { ...base.parts, GPU: Array.from({ length: 5 }, () => base.parts.GPU![0]) }, state: null },
    { parts: { ...base.parts, CaseFan: [{ ...base.parts.CaseFan![0]!, specs: { ...base.parts.CaseFan![0]!.specs, quantity: 9 } }] }, state: null },
  ];
  it('never throws and reports what it could not draw', () => {
    for (const shape of shapes) {
      const built = buildBuildGroup(shape as StageBuild);
      expect(finite(boxOf(built.group)), JSON.stringify(shape).slice(0, 120)).toBe(true);
      expect(Array.isArray(built.warnings)).toBe(true);
    }
    const crowded = buildBuildGroup(shapes[6] as StageBuild);
    expect(crowded.warnings.some((w) => w.includes('DIMM'))).toBe(true);
    const badSlots = buildBuildGroup(shapes[5] as StageBuild);
    expect(badSlots.warnings.some((w) => w.includes('front-9'))).toBe(true);
  });
});
