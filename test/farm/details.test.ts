/**
 * The model details of render v2 are built where the data says, and only there: cables with
 * a PSU, AIO tubes only with a liquid cooler, dual-chamber layout for panoramic cases, the
 * GPU's name text from its catalog name, swept fan blades, RGB rings on RGB fans.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { buildBuildGroup } from '../../farm/src/build-scene.js';
import type { StageBuild } from '../../src/model/stage-contract.js';
import { caseStyle, normalizeSpecs } from '../../src/model/normalize-specs.js';
import { buildFan } from '../../farm/src/models/fan.js';
import { gpuNameText } from '../../farm/src/models/gpu.js';
import { MaterialKit } from '../../farm/src/util/materials.js';
import type { Part } from '../../src/model/part.js';
import { boxOf, partsIn, within } from '../helpers/scene.js';
import { demoStageBuild as demoBuild } from '../../src/catalog/demo-catalog.js';

/** Names of the materials used under `root`. */
function materials(root: THREE.Object3D): string[] {
  const out = new Set<string>();
  root.traverse((o) => {
    const m = (o as THREE.Mesh).material as THREE.Material | undefined;
    if (m) out.add(m.name);
  });
  return [...out];
}

function meshNamed(root: THREE.Object3D, name: string): THREE.Object3D | undefined {
  let found: THREE.Object3D | undefined;
  root.traverse((o) => {
    if (o.name === name) found = o;
  });
  return found;
}

describe('cables', () => {
  it('a build with a PSU has its 24-pin, EPS and PCIe cables, inside the case', () => {
    const built = buildBuildGroup(demoBuild('DEMO-GLASS'));
    const [cables] = partsIn(built.group, 'Cables' as never);
    expect(cables).toBeDefined();
    expect(cables!.userData).toMatchObject({ atx: true, eps: true, pcie: 1 });
    expect(materials(cables!).some((n) => n.startsWith('sleeve:'))).toBe(true);
    expect(within(boxOf(cables!), boxOf(partsIn(built.group, 'PCCase')[0]!), 1)).toBe(true);
  });

  it('no PSU, no cables; and they can be left out', () => {
    const base = demoBuild('DEMO-GLASS');
    const noPsu: StageBuild = { ...base, parts: { ...base.parts, PSU: [] } };
    expect(partsIn(buildBuildGroup(noPsu).group, 'Cables' as never)).toHaveLength(0);
    expect(partsIn(buildBuildGroup(base, { omit: ['cables'] }).group, 'Cables' as never)).toHaveLength(0);
  });
});

describe('AIO tubes', () => {
  const sleeved = (b: StageBuild) =>
    materials(partsIn(buildBuildGroup(b).group, 'CPUCooler')[0]!).filter((n) => n.startsWith('sleeve:'));

  it('a liquid cooler has two sleeved tubes to its radiator', () => {
    const built = buildBuildGroup(demoBuild('DEMO-WHITE'));
    const cooler = partsIn(built.group, 'CPUCooler')[0]!;
    expect(cooler.userData).toMatchObject({ type: 'liquid', tubes: true });
    expect(sleeved(demoBuild('DEMO-WHITE'))).toHaveLength(1);
    let tubes = 0;
    cooler.traverse((o) => {
      if ((o as THREE.Mesh).isMesh && (o as THREE.Mesh).geometry.type === 'TubeGeometry') tubes++;
    });
    expect(tubes).toBe(2);
  });

  it('an air cooler has none', () => {
    expect(partsIn(buildBuildGroup(demoBuild('DEMO-GLASS')).group, 'CPUCooler')[0]!.userData.type).toBe('air');
    expect(sleeved(demoBuild('DEMO-GLASS'))).toEqual([]);
  });
});

describe('dual-chamber cases', () => {
  const rgb = demoBuild('DEMO-RGB'); // "Lumen Prism 360 ... Dual Glass"

  it('are recognised from a flag or the name, never for solid panels', () => {
    const specs = normalizeSpecs('PCCase', rgb.parts.PCCase![0]! as Part<'PCCase'>, []);
    expect(caseStyle(rgb.parts.PCCase![0], specs).dualChamber).toBe(true);
    expect(caseStyle({ name: 'Lian Li O11 Dynamic EVO', specs }, specs).dualChamber).toBe(true);
    expect(caseStyle({ name: 'HYTE Y60 ATX Mid Tower', specs }, specs).dualChamber).toBe(true);
    expect(caseStyle({ name: 'Plain Tower', specs: { ...specs, dualChamber: true } }, specs).dualChamber).toBe(true);
    expect(caseStyle({ name: 'Northwind Aero 500', specs }, specs).dualChamber).toBe(false);
    expect(caseStyle({ name: 'Dual Chamber Solid', specs }, { ...specs, sidePanel: 'solid' }).dualChamber).toBe(false);
  });

  it('have a glass front, no shroud, and the PSU standing behind the tray', () => {
    const built = buildBuildGroup(rgb);
    const layout = built.layout!;
    expect(layout.dualChamber).toBe(true);
    expect(layout.shroud).toBe(false);
    const psu = boxOf(partsIn(built.group, 'PSU')[0]!);
    expect(psu.min.x).toBeGreaterThan(layout.trayX);
    expect(within(psu, boxOf(partsIn(built.group, 'PCCase')[0]!), 1)).toBe(true);
    expect(meshNamed(partsIn(built.group, 'PCCase')[0]!, 'front-glass')).toBeDefined();
    // an ordinary glass tower keeps its mesh front and shroud
    const glass = buildBuildGroup(demoBuild('DEMO-GLASS'));
    expect(glass.layout!.dualChamber).toBe(false);
    expect(meshNamed(partsIn(glass.group, 'PCCase')[0]!, 'front-glass')).toBeUndefined();
    expect(meshNamed(partsIn(glass.group, 'PCCase')[0]!, 'front-mesh')).toBeDefined();
  });
});

describe('GPU name text', () => {
  const gpu = (brand: 'NVIDIA' | 'AMD' | 'Intel' | 'Other') => normalizeSpecs('GPU', { specs: { brand } as never }, []);

  it('reads the series and model from the catalog name', () => {
    expect(gpuNameText(gpu('NVIDIA'), 'Kestrel GeForce RTX 4070 Ti Super 16GB Storm 3X')).toEqual({
      brand: 'GEFORCE RTX',
      model: '4070 Ti SUPER',
    });
    expect(gpuNameText(gpu('AMD'), 'Lumen Radeon RX 7900 XTX 24GB Aurora ARGB')).toEqual({
      brand: 'RADEON',
      model: 'RX 7900 XTX',
    });
    expect(gpuNameText(gpu('Intel'), 'Basis Arc B580 12GB Blower')).toEqual({ brand: 'INTEL ARC', model: 'B580' });
    expect(gpuNameText(gpu('Other'), 'Matrox Millennium')).toEqual({ brand: 'MATROX', model: '' });
  });

  it('puts a name plate on the window-facing edge of every card', () => {
    const built = buildBuildGroup(demoBuild('DEMO-GLASS'));
    const card = partsIn(built.group, 'GPU')[0]!;
    const plate = meshNamed(card, 'gpu-name')!;
    expect(plate).toBeDefined();
    // it faces the window (-x) from the card's top edge
    const normal = new THREE.Vector3(0, 0, 1).applyQuaternion(plate.getWorldQuaternion(new THREE.Quaternion()));
    expect(normal.x).toBeLessThan(-0.99);
  });
});

describe('fans', () => {
  const kit = new MaterialKit();
  const triangles = (o: THREE.Object3D) => {
    let n = 0;
    o.traverse((m) => {
      const g = (m as THREE.Mesh).geometry;
      if (g) n += (g.index?.count ?? g.getAttribute('position').count) / 3;
    });
    return n;
  };

  it('have swept blades (7 to 11), corner pads and a hub sticker; RGB fans a glowing ring on both faces', () => {
    const plain = buildFan(kit, { sizeMm: 120, color: '#111111', rgb: false });
    const rgb = buildFan(kit, { sizeMm: 120, color: '#111111', rgb: true });
    const pads = plain.children.filter((c) => c.name === 'pad');
    expect(pads).toHaveLength(8);
    expect(plain.children.filter((c) => c.name === 'rgb-ring')).toHaveLength(0);
    expect(rgb.children.filter((c) => c.name === 'rgb-ring')).toHaveLength(2);
    expect(triangles(rgb)).toBeGreaterThan(triangles(plain));
    // the blade set: one mesh whose vertices leave the rotation plane (pitch) and sweep
    const blades = plain.children.find((c) => (c as THREE.Mesh).geometry?.type === 'BufferGeometry') as THREE.Mesh;
    const pos = blades.geometry.getAttribute('position');
    let minZ = Infinity;
    let maxZ = -Infinity;
    for (let i = 0; i < pos.count; i++) {
      minZ = Math.min(minZ, pos.getZ(i));
      maxZ = Math.max(maxZ, pos.getZ(i));
    }
    expect(maxZ - minZ).toBeGreaterThan(8);
  });
});

describe('triangle budget', () => {
  it('every demo build stays under the documented budget (see farm/README.md)', () => {
    for (const code of [
      'DEMO-GLASS',
      'DEMO-ITX',
      'DEMO-WHITE',
      'DEMO-AIO360',
      'DEMO-BUDGET',
      'DEMO-RGB',
      'DEMO-MESH',
      'DEMO-STUDIO',
    ]) {
      const built = buildBuildGroup(demoBuild(code));
      expect(built.triangles, code).toBeGreaterThan(10_000);
      expect(built.triangles, code).toBeLessThan(150_000);
    }
  });
});
