/** Parts sit physically in the case: GPU inside, RAM on the board, fans and radiator in their slots. */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { buildBuildGroup } from '../../farm/src/build-scene.js';
import type { StageBuild } from '../../src/model/stage-contract.js';
import { DEMO_BUILDS, demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { boxOf, partsIn, within } from '../helpers/scene.js';

describe('a full build', () => {
  const built = buildBuildGroup(demoStageBuild('DEMO-GLASS'));
  const layout = built.layout!;
  const caseBox = boxOf(partsIn(built.group, 'PCCase')[0]!);
  const board = boxOf(partsIn(built.group, 'Motherboard')[0]!);

  it('has every part of the build', () => {
    for (const c of ['PCCase', 'Motherboard', 'CPU', 'CPUCooler', 'GPU', 'RAM', 'Storage', 'PSU', 'CaseFan'] as const) {
      expect(partsIn(built.group, c).length, c).toBeGreaterThan(0);
    }
    expect(built.triangles).toBeGreaterThan(3000);
    expect(built.triangles).toBeLessThan(150_000);
  });

  it('puts the GPU inside the case, hanging from the board toward the window', () => {
    const gpu = boxOf(partsIn(built.group, 'GPU')[0]!);
    expect(within(gpu, caseBox)).toBe(true);
    expect(gpu.max.x).toBeLessThanOrEqual(layout.boardFaceX + 2);
    expect(gpu.min.x).toBeGreaterThan(layout.windowX);
  });

  it('stands the RAM in DIMM slots on the board, above the GPU', () => {
    const gpu = boxOf(partsIn(built.group, 'GPU')[0]!);
    const sticks = partsIn(built.group, 'RAM').map(boxOf);
    expect(sticks).toHaveLength(2);
    for (const s of sticks) {
      expect(s.max.x).toBeLessThanOrEqual(layout.boardFaceX + 0.5); // standing off the board face
      expect(s.min.y).toBeGreaterThanOrEqual(board.min.y);
      expect(s.max.y).toBeLessThanOrEqual(board.max.y + 0.5);
      expect(s.min.y).toBeGreaterThan(gpu.max.y);
      expect(s.min.z).toBeGreaterThanOrEqual(board.min.z);
      expect(s.max.z).toBeLessThanOrEqual(board.max.z);
    }
    // two sticks on a four-slot board go in the second slot of each channel
    expect(partsIn(built.group, 'RAM').map((r) => r.userData.dimm)).toEqual([1, 3]);
  });

  it('keeps every part inside the case', () => {
    for (const child of built.group.children) {
      if (child.userData.category === 'PCCase') continue;
      expect(within(boxOf(child), caseBox, 1), child.name).toBe(true);
    }
  });

  it('mounts fans at the slot positions the saved state names', () => {
    const fans = partsIn(built.group, 'CaseFan');
    expect(fans.map((f) => f.userData.slot)).toEqual(['front-1', 'front-2', 'front-3', 'rear-1']);
    for (const f of fans) {
      const slot = built.placement.fans.find((p) => p.slot.id === f.userData.slot)!.slot;
      const centre = boxOf(f).getCenter(new THREE.Vector3());
      expect(centre.distanceTo(new THREE.Vector3(...slot.center))).toBeLessThan(3);
    }
    // the rear fan is the state's other part, the front ones the build's first CaseFan
    expect(fans[3]!.userData.partId).not.toBe(fans[0]!.userData.partId);
  });
});

describe('AIO radiators', () => {
  const aioBuild = demoStageBuild('DEMO-WHITE');
  const withState = (state: StageBuild['state']): StageBuild => ({ ...aioBuild, state });
  const radiatorOf = (b: StageBuild) => {
    const built = buildBuildGroup(b);
    return { built, cooler: partsIn(built.group, 'CPUCooler')[0]! };
  };

  it('goes where the state says, inside the case', () => {
    for (const panel of ['top', 'front'] as const) {
      const { built, cooler } = radiatorOf(withState({ radiator: { slot: panel } }));
      expect(cooler.userData.radiator).toBe(panel);
      expect(built.placement.radiator?.panel).toBe(panel);
      expect(within(boxOf(cooler), boxOf(partsIn(built.group, 'PCCase')[0]!), 1)).toBe(true);
    }
  });

  it('top radiators sit under the roof, front radiators behind the front panel', () => {
    const top = radiatorOf(withState({ radiator: { slot: 'top' } }));
    const front = radiatorOf(withState({ radiator: { slot: 'front' } }));
    const topBox = boxOf(top.cooler);
    const frontBox = boxOf(front.cooler);
    expect(topBox.max.y).toBeGreaterThan(top.built.layout!.height - 20);
    expect(frontBox.max.z).toBeGreaterThan(front.built.layout!.depth / 2 - 20);
  });

  it('defaults to the top and reports a slot the case cannot hold', () => {
    expect(radiatorOf(withState(null)).built.placement.radiator?.panel).toBe('top');
    const { built } = radiatorOf(withState({ radiator: { slot: 'rear' } }));
    expect(built.warnings.some((w) => w.includes('radiator') && w.includes('rear'))).toBe(true);
    expect(built.placement.radiator).not.toBeNull();
  });

  it('keeps case fans out of the radiator slots', () => {
    const { built } = radiatorOf(
      withState({ radiator: { slot: 'front' }, fans: [{ slot: 'front-1' }, { slot: 'top-1' }] }),
    );
    expect(built.placement.fans.map((f) => f.slot.id)).toEqual(['top-1']);
    expect(built.warnings.some((w) => w.includes('front-1') && w.includes('radiator'))).toBe(true);
  });
});

describe('interactive state', () => {
  const build = demoStageBuild('DEMO-GLASS');

  it('tints every RGB part with rgb.color', () => {
    const built = buildBuildGroup({ ...build, state: { rgb: { color: '#ff0000', mode: 'static' } } });
    const rgb: THREE.MeshBasicMaterial[] = [];
    built.group.traverse((o) => {
      const m = (o as THREE.Mesh).material as THREE.Material | undefined;
      if (m && m.name.startsWith('rgb:')) rgb.push(m as THREE.MeshBasicMaterial);
    });
    expect(rgb.length).toBeGreaterThan(0);
    for (const m of rgb) {
      expect(m.name).toBe('rgb:#ff0000');
      expect(m.color.g).toBe(0);
      expect(m.color.r).toBeGreaterThan(0);
    }
  });

  it('turns RGB off with mode off', () => {
    const built = buildBuildGroup({ ...build, state: { rgb: { color: '#ff0000', mode: 'off' } } });
    const names = new Set<string>();
    built.group.traverse((o) => {
      const m = (o as THREE.Mesh).material as THREE.Material | undefined;
      if (m?.name.startsWith('rgb:')) names.add(m.name);
    });
    expect([...names]).toEqual(['rgb:off']);
  });

  it('without fan state, places fans by the default policy: front intake first, then rear', () => {
    const built = buildBuildGroup({ ...build, state: null });
    expect(built.placement.fans.map((f) => f.slot.id)).toEqual(['front-1', 'front-2', 'front-3', 'rear-1']);
  });

  it('places (nearly) every saved fan of every demo build, and reports the rest', () => {
    for (const demo of DEMO_BUILDS) {
      const built = buildBuildGroup(demoStageBuild(demo.shareCode));
      const saved = demo.interactiveState?.fans?.length ?? 0;
      const skipped = built.warnings.filter((w) => w.startsWith('fan slot')).length;
      expect(built.placement.fans.length + skipped, demo.shareCode).toBe(saved || built.placement.fans.length);
      expect(built.placement.fans.length, demo.shareCode).toBeGreaterThanOrEqual(Math.floor(saved * 0.8));
      expect(
        built.warnings.filter((w) => w.includes('x16')),
        demo.shareCode,
      ).toEqual([]);
    }
  });
});
