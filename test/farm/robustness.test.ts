/**
 * Every model builds from any data: every OpenDB fixture record through the catalog's mapper,
 * and hostile build shapes (hostile specs: robustness-hostile-specs.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { buildBuildGroup } from '../../farm/src/build-scene.js';
import { expectRecordsModel } from '../helpers/record-models.js';
import type { StageBuild } from '../../src/model/stage-contract.js';
import { CATEGORIES } from '../../src/model/part.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { boxOf, finite } from '../helpers/scene.js';
import { fixtureRecords } from '../helpers/opendb-data.js';

const base = demoStageBuild('DEMO-GLASS');

describe('every OpenDB fixture record', () => {
  for (const category of CATEGORIES) {
    it(`${category}: maps, models alone and inside a full build`, () => {
      expectRecordsModel(fixtureRecords().filter((r) => r.category === category));
    });
  }
});

describe('hostile build shapes', () => {
  const shapes: unknown[] = [
    {},
    { parts: null, state: null },
    { parts: {}, state: null },
    { parts: { GPU: 'not a list', RAM: [null, 3, 'x'] }, state: 'nonsense' },
    { parts: { PCCase: [] }, state: { fans: 'x', radiator: 5, rgb: { color: 12 } } },
    {
      ...base,
      state: {
        fans: [{ slot: 'front-9' }, { slot: 'nowhere-1' }, { slot: 'top-1', partId: 'missing' }],
        radiator: { slot: 'side' },
        rgb: { color: 'red', mode: 'off' },
      },
    },
    { parts: { ...base.parts, RAM: Array.from({ length: 12 }, () => base.parts.RAM![0]) }, state: null },
    { parts: { ...base.parts, GPU: Array.from({ length: 5 }, () => base.parts.GPU![0]) }, state: null },
    {
      parts: {
        ...base.parts,
        CaseFan: [{ ...base.parts.CaseFan![0]!, specs: { ...base.parts.CaseFan![0]!.specs, quantity: 9 } }],
      },
      state: null,
    },
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
