/**
 * Every model builds from any data: every OpenDB fixture record through the catalog's mapper,
 * and hand-made hostile specs (NaN, zero, negative, huge, wrong types, missing fields).
 */
import { describe, expect, it } from 'vitest';
import { buildBuildGroup, buildPartModel } from '../../farm/src/build-scene.js';
import { expectRecordsModel, TRIANGLE_BUDGET } from '../helpers/record-models.js';
import type { StageBuild } from '../../src/model/stage-contract.js';
import { CATEGORIES, type Category, type Part } from '../../src/model/part.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { boxOf, finite } from '../helpers/scene.js';
import { fixtureRecords } from '../helpers/opendb-data.js';

const base = demoStageBuild('DEMO-GLASS');

/** The base build with `part` as the only part of its category. */
function withPart(part: Part): StageBuild {
  return { ...base, parts: { ...base.parts, [part.category]: [part] } };
}

describe('every OpenDB fixture record', () => {
  for (const category of CATEGORIES) {
    it(`${category}: maps, models alone and inside a full build`, () => {
      expectRecordsModel(fixtureRecords().filter((r) => r.category === category));
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
