/**
 * The order of a build's part IDs never changes what is drawn: the API sorts them, the CLI
 * keeps a saved build's order, and both must give the same render input and placement.
 */
import { describe, expect, it } from 'vitest';
import { buildBuildGroup } from '../../farm/src/build-scene.js';
import { canonicalBuild } from '../../farm/src/layout/canonical-build.js';
import type { StageBuild } from '../../src/model/stage-contract.js';
import { DEMO_BUILDS, DEMO_IDS } from '../../src/catalog/demo-catalog.js';
import type { Category, Part } from '../../src/model/part.js';
import { demoStageBuild as demoBuild } from '../../src/catalog/demo-catalog.js';

/** Every category's list reversed, and every category's list sorted by ID (what the API renders). */
function permutations(build: StageBuild): StageBuild[] {
  const map = (f: (list: Part[]) => Part[]): StageBuild => ({
    state: build.state,
    parts: Object.fromEntries(Object.entries(build.parts).map(([c, l]) => [c, f([...(l as Part[])])])) as Partial<
      Record<Category, Part[]>
    >,
  });
  return [
    map((l) => l.reverse()),
    map((l) => l.sort((a, b) => (a.id < b.id ? -1 : 1))),
    map((l) => [...l.slice(1), ...l.slice(0, 1)]),
  ];
}

/** What a build group draws: each part's name, slot and position, in scene order. */
function drawn(build: StageBuild) {
  const built = buildBuildGroup(build);
  return {
    fans: built.placement.fans.map((f) => `${f.slot.id}:${f.partId}`),
    radiator: built.placement.radiator?.panel ?? null,
    children: built.group.children.map(
      (c) =>
        `${c.name}@${c.position
          .toArray()
          .map((v) => v.toFixed(2))
          .join(',')}:${JSON.stringify(c.userData)}`,
    ),
    warnings: built.warnings,
  };
}

describe('canonical build order', () => {
  for (const demo of DEMO_BUILDS) {
    it(`${demo.shareCode}: permuted part IDs give the same render input and the same drawing`, () => {
      const saved = demoBuild(demo.shareCode);
      const reference = canonicalBuild(saved);
      const picture = drawn(saved);
      for (const p of permutations(saved)) {
        expect(canonicalBuild(p)).toEqual(reference);
        expect(drawn(p)).toEqual(picture);
      }
    });
  }

  it("fills unnamed saved fan slots with the build's largest fan pack, whatever the order", () => {
    // DEMO-GLASS: the ARGB 3-pack up front, the named single black fan at the rear
    const glass = demoBuild('DEMO-GLASS');
    for (const b of [glass, ...permutations(glass)]) {
      expect(drawn(b).fans).toEqual([
        `front-1:${DEMO_IDS.fan120Rgb3}`,
        `front-2:${DEMO_IDS.fan120Rgb3}`,
        `front-3:${DEMO_IDS.fan120Rgb3}`,
        `rear-1:${DEMO_IDS.fan120Black}`,
      ]);
    }
  });

  it('places the largest pack first without a saved state, and breaks ties by ID', () => {
    const glass = { ...demoBuild('DEMO-GLASS'), state: null };
    for (const b of [glass, ...permutations(glass)]) {
      expect(drawn(b).fans.map((f) => f.split(':')[1])).toEqual([
        DEMO_IDS.fan120Rgb3,
        DEMO_IDS.fan120Rgb3,
        DEMO_IDS.fan120Rgb3,
        DEMO_IDS.fan120Black,
      ]);
    }
    const fan = (id: string, quantity: number) =>
      ({ id, category: 'CaseFan', name: id, specs: { sizeMm: 120, quantity, color: '#000000', rgb: false } }) as Part;
    const order = (list: Part[]) =>
      canonicalBuild({ parts: { CaseFan: list }, state: null }).parts.CaseFan!.map((p) => p.id);
    expect(order([fan('b', 1), fan('a', 1), fan('c', 3)])).toEqual(['c', 'a', 'b']);
    expect(order([fan('c', 3), fan('b', 1), fan('a', 1)])).toEqual(['c', 'a', 'b']);
  });

  it('keeps malformed input drawable', () => {
    const junk = {
      parts: { CaseFan: [null, { id: 7 }, { id: 'z', specs: { quantity: 'many' } }], GPU: 'x' },
      state: null,
    } as unknown as StageBuild;
    expect(() => canonicalBuild(junk)).not.toThrow();
    expect(canonicalBuild(null as unknown as StageBuild)).toBe(null);
  });
});
