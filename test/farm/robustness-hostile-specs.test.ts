/**
 * Every model builds from hand-made hostile specs (NaN, zero, negative, huge, wrong types,
 * missing fields), alone and inside a full build. Split from robustness.test.ts: the sweep builds
 * a full build per hostile value, too slow for the unit tier (it runs in the render tier).
 */
import { describe, expect, it } from 'vitest';
import { buildBuildGroup, buildPartModel } from '../../farm/src/build-scene.js';
import { TRIANGLE_BUDGET } from '../helpers/record-models.js';
import type { StageBuild } from '../../src/model/stage-contract.js';
import { CATEGORIES, type Category, type Part } from '../../src/model/part.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { boxOf, finite } from '../helpers/scene.js';

const base = demoStageBuild('DEMO-GLASS');

/** The base build with `part` as the only part of its category. */
function withPart(part: Part): StageBuild {
  return { ...base, parts: { ...base.parts, [part.category]: [part] } };
}

const HOSTILE_VALUES: unknown[] = [
  NaN,
  0,
  -1,
  -1e9,
  1e9,
  Infinity,
  -Infinity,
  null,
  undefined,
  'abc',
  '',
  [],
  {},
  true,
];

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
    const gpu = {
      id: 'bad-gpu',
      category: 'GPU',
      name: 'x',
      specs: { ...base.parts.GPU![0]!.specs, lengthMm: NaN },
    } as Part;
    const { warnings } = buildBuildGroup(withPart(gpu));
    expect(warnings.some((w) => w.includes('GPU bad-gpu') && w.includes('lengthMm'))).toBe(true);
  });
});
