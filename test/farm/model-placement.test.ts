/** Part models in the build group (Node, no page): each fitted to its part's slot, materials adapted, anchors followed. */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { buildBuildGroup } from '../../farm/src/build-scene.js';
import { parseGlb } from '../../farm/src/models/glb-library.js';
import { normalizeSpecs } from '../../src/model/normalize-specs.js';
import type { Part } from '../../src/model/part.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { caseWithAnchors, distinctiveGpu, rgbFan, type FixtureDoc } from '../helpers/gltf-fixtures.js';
import { boxOf, partsIn } from '../helpers/scene.js';

async function template(f: FixtureDoc): Promise<THREE.Object3D> {
  const bytes = await f.glb();
  return parseGlb(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

const base = demoStageBuild('DEMO-GLASS');
const gpuPart = base.parts.GPU![0]! as Part<'GPU'>;
const gpuSpecs = normalizeSpecs('GPU', gpuPart, []);

function modelMeshes(root: THREE.Object3D): THREE.Mesh[] {
  const out: THREE.Mesh[] = [];
  root.traverse((o) => {
    if ((o as THREE.Mesh).isMesh && o.userData.partModel) out.push(o as THREE.Mesh);
  });
  return out;
}

describe('part model placement', () => {
  it('a GPU model replaces the procedural card and sits in its slot: board face, bracket end and top within 1 mm', async () => {
    const plain = buildBuildGroup(base);
    const card = partsIn(plain.group, 'GPU')[0]!;
    const slot = card.position.clone();
    const procedural = boxOf(card);
    const tpl = await template(distinctiveGpu(gpuSpecs.lengthMm, gpuSpecs.slotWidth));
    const built = buildBuildGroup(base, { models: new Map([[gpuPart.id, tpl]]) });
    expect(built.models).toEqual([gpuPart.id]);
    const gpu = partsIn(built.group, 'GPU')[0]!;
    expect(gpu.name).toBe(`GPU:${gpuPart.id}`);
    expect(modelMeshes(gpu)).toHaveLength(2);
    // nothing procedural left in the GPU group
    gpu.traverse((o) => {
      if ((o as THREE.Mesh).isMesh) expect(o.userData.partModel).toBe(true);
    });
    const box = boxOf(gpu);
    expect(Math.abs(box.max.x - slot.x)).toBeLessThan(1);
    expect(Math.abs(box.min.z - slot.z)).toBeLessThan(1);
    expect(Math.abs(box.max.y - (slot.y + 3.5))).toBeLessThan(1);
    // the same card as the procedural one, within a few mm on every face
    for (const k of ['x', 'y', 'z'] as const) {
      expect(Math.abs(box.min[k] - procedural.min[k]), `min.${k}`).toBeLessThan(8);
      expect(Math.abs(box.max[k] - procedural.max[k]), `max.${k}`).toBeLessThan(16);
    }
    // the other parts are unchanged
    expect(boxOf(partsIn(built.group, 'Motherboard')[0]!).equals(boxOf(partsIn(plain.group, 'Motherboard')[0]!))).toBe(
      true,
    );
  });

  it('model meshes are kept out of the merge and share the template geometry', async () => {
    const tpl = await template(distinctiveGpu(gpuSpecs.lengthMm, gpuSpecs.slotWidth));
    const built = buildBuildGroup(base, { models: new Map([[gpuPart.id, tpl]]) });
    const tplGeometries = new Set<THREE.BufferGeometry>();
    tpl.traverse((o) => (o as THREE.Mesh).isMesh && tplGeometries.add((o as THREE.Mesh).geometry));
    for (const m of modelMeshes(built.group)) {
      expect(m.userData.keep).toBe(true);
      expect(m.userData.sharedGeometry).toBe(true);
      expect(tplGeometries.has(m.geometry)).toBe(true);
    }
  });

  it('an RGB-tagged fan material takes the saved colour (the kit RGB material), by name or by extras; every fan of the part is replaced', async () => {
    const fans = base.parts.CaseFan!;
    expect(fans.length).toBeGreaterThan(0);
    const fanId = fans[0]!.id;
    for (const tag of ['name', 'extras'] as const) {
      const tpl = await template(rgbFan(120, tag));
      const build = {
        ...base,
        state: { ...base.state!, rgb: { ...(base.state?.rgb ?? {}), mode: 'static', color: '#00ff00' } },
      } as typeof base;
      const built = buildBuildGroup(build, { models: new Map([[fanId, tpl]]) });
      const placed = partsIn(built.group, 'CaseFan').filter((g) => g.userData.partId === fanId);
      expect(placed.length).toBeGreaterThan(0);
      for (const g of placed) {
        const materials = modelMeshes(g).map((m) => m.material as THREE.Material);
        expect(materials).toHaveLength(2);
        const rgb = materials.find((m) => m.name.startsWith('rgb:'));
        expect(rgb?.name, tag).toBe('rgb:#00ff00');
        // centred in its slot
        const c = boxOf(g).getCenter(new THREE.Vector3());
        expect(c.distanceTo(g.position)).toBeLessThan(1);
      }
    }
  });

  it('a fan model is turned as the procedural fan: its depth (25 mm) along the slot direction', async () => {
    const fanId = base.parts.CaseFan![0]!.id;
    const built = buildBuildGroup(base, { models: new Map([[fanId, await template(rgbFan(120))]]) });
    for (const g of partsIn(built.group, 'CaseFan').filter((f) => f.userData.partId === fanId)) {
      const size = boxOf(g).getSize(new THREE.Vector3());
      const slot = String(g.userData.slot);
      const thin =
        slot.startsWith('front') || slot.startsWith('rear')
          ? size.z
          : slot.startsWith('top') || slot.startsWith('bottom')
            ? size.y
            : size.x;
      // the fixture's ring stands 3 mm proud of the 25 mm frame
      expect(thin, slot).toBeGreaterThan(24);
      expect(thin, slot).toBeLessThan(30);
      expect(Math.max(size.x, size.y, size.z), slot).toBeCloseTo(120, 0);
    }
  });

  it('a case model replaces the shell (floor on y=0, centred) and its anchors move the board group, the PSU and the fans', async () => {
    const caseId = base.parts.PCCase![0]!.id;
    const plain = buildBuildGroup(base);
    const f = caseWithAnchors(230, 480, 450);
    const built = buildBuildGroup(base, { models: new Map([[caseId, await template(f)]]) });
    const shell = partsIn(built.group, 'PCCase')[0]!;
    const box = boxOf(shell);
    expect(box.min.y).toBeCloseTo(0, 3);
    expect((box.min.x + box.max.x) / 2).toBeCloseTo(0, 3);
    expect((box.min.z + box.max.z) / 2).toBeCloseTo(0, 3);
    expect(box.max.y).toBeCloseTo(480, 0);
    // the board's rear-top corner (on the tray) at anchor_motherboard_tray: [W/2-30, H-30, -D/2+20] mm
    const layout = plain.layout!;
    const tray = new THREE.Vector3(230 / 2 - 30, 480 - 30, -450 / 2 + 20);
    const delta = tray.clone().sub(new THREE.Vector3(layout.trayX, layout.boardTopY, layout.boardRearZ));
    expect(delta.length()).toBeGreaterThan(5);
    for (const cat of ['Motherboard', 'GPU', 'RAM', 'CPU'] as const) {
      const before = partsIn(plain.group, cat)[0]!.position;
      const after = partsIn(built.group, cat)[0]!.position;
      expect(after.clone().sub(before).distanceTo(delta), cat).toBeLessThan(0.01);
    }
    const psu = boxOf(partsIn(built.group, 'PSU')[0]!).getCenter(new THREE.Vector3());
    expect(psu.distanceTo(new THREE.Vector3(0, 50, -450 / 2 + 100))).toBeLessThan(0.01);
    const front1 = partsIn(built.group, 'CaseFan').find((g) => g.userData.slot === 'front-1');
    expect(front1, 'DEMO-GLASS has a fan in front-1').toBeDefined();
    expect(front1!.position.distanceTo(new THREE.Vector3(0, 480 * 0.7, 450 / 2 - 30))).toBeLessThan(0.01);
    // the glass panel draws with the kit's glass
    const glass = modelMeshes(shell).filter((m) => (m.material as THREE.Material).name.startsWith('glass:'));
    expect(glass).toHaveLength(1);
  });

  it('a liquid cooler model replaces the pump head only', async () => {
    const aio = demoStageBuild('DEMO-RGB');
    const cooler = aio.parts.CPUCooler?.[0];
    if (!cooler || normalizeSpecs('CPUCooler', cooler as Part<'CPUCooler'>, []).type !== 'liquid')
      return expect.fail('DEMO-RGB should have a liquid cooler');
    const f = (await import('../helpers/gltf-fixtures.js')).denseBox(12, [0.045, 0.07, 0.07]);
    const built = buildBuildGroup(aio, { models: new Map([[cooler.id, await template(f)]]) });
    const g = partsIn(built.group, 'CPUCooler')[0]!;
    const pump = g.getObjectByName('pump')!;
    expect(modelMeshes(pump)).toHaveLength(1);
    // radiator and tubes are still procedural
    let procedural = 0;
    g.traverse((o) => (o as THREE.Mesh).isMesh && !o.userData.partModel && procedural++);
    expect(procedural).toBeGreaterThan(10);
    expect(boxOf(pump).max.x).toBeCloseTo(built.layout!.boardFaceX - 0, -1.5);
  });
});
