/**
 * Part models on the stage (Node-safe, no DOM): an artist's model (a parsed glTF scene in the
 * authoring frame of src/model/part-models.ts, metres) replaces the procedural group of its part
 * in the build group (case coordinates, mm), fitted to the slot the procedural model occupied:
 *
 *   GPU        board-side (+X) face, bracket end (-Z) and top (+Y) on the procedural card's
 *   CPUCooler  +X face on the CPU, centred on the socket (liquid: the pump head only; radiator
 *              and tubes stay procedural)
 *   Motherboard, RAM  +X face on the board / tray (board: rear-top corner; RAM: centred)
 *   PSU        centred in its bay, turned as the procedural one (on its side behind a dual-chamber tray)
 *   CaseFan    every placed fan of the part, centred in its slot, blowing into the case (+Z -> inward)
 *   PCCase     floor on y=0, centred in X/Z; the procedural shell is dropped and the layout stays
 *              the one computed from the case specs, except where the model has anchors
 *              (CASE_ANCHORS): the board group goes to `anchor_motherboard_tray`, the first GPU's
 *              slot to `anchor_gpu_slot`, the PSU to `anchor_psu_bay`, each fan to
 *              `anchor_fan_<panel>_<n>` of its slot. Cables and an AIO's radiator and tubes are not
 *              moved by anchors (yet). Without anchors, the parts go inside the model's measured
 *              interior (case-interior.ts: its box less a wall thickness, each part keeping its
 *              distance to the nearest wall).
 *
 * Materials: RGB materials (isRgbMaterial) draw with the kit's RGB material (the build's saved
 * colour, bloom, the glow layer); glass (transmission, or blended with opacity < 1) with the kit's
 * glass. Model meshes are kept out of the build's merge (`userData.keep`: their materials and UVs
 * are their own) and share geometry with the cached template (`userData.sharedGeometry`: the
 * session must not dispose it).
 */
import * as THREE from 'three';
import type { Category, Part } from '../../../src/model/part.js';
import { CASE_ANCHORS, isRgbMaterial } from '../../../src/model/part-models.js';
import { paintRainbow } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';
import type { CaseLayout } from './case-layout.js';
import { caseWallMm, interiorAnchors } from './case-interior.js';

/** Part ID -> its model's parsed template (metres), as glb-library.ts keeps them. */
export type ModelTemplates = ReadonlyMap<string, THREE.Object3D>;

const M_TO_MM = 1000;

/** Whether a model material is glass: it shows the interior as the kit's glass does. */
function isGlass(m: THREE.Material): boolean {
  const transmission = (m as THREE.MeshPhysicalMaterial).transmission ?? 0;
  return transmission > 0 || (m.transparent && m.opacity < 1);
}

/**
 * A clone of `template` in millimetres (a wrapper scaled 1000x), its materials adapted to the
 * build's kit. The clone shares the template's geometry, except RGB meshes drawn with the
 * rainbow (they get a copy carrying its vertex colours).
 */
export function modelInstance(template: THREE.Object3D, kit: MaterialKit): THREE.Group {
  const clone = template.clone(true);
  clone.traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh) return;
    mesh.userData = { ...mesh.userData, keep: true, sharedGeometry: true, partModel: true };
    mesh.castShadow = mesh.receiveShadow = true;
    const adapt = (m: THREE.Material): THREE.Material => {
      if (isRgbMaterial(m.name, m.userData)) {
        const rgb = kit.rgb();
        if ((rgb as THREE.MeshBasicMaterial).vertexColors && !mesh.geometry.getAttribute('color')) {
          mesh.geometry = paintRainbow(mesh.geometry.clone(), 'angle');
          mesh.userData.sharedGeometry = false;
        }
        return rgb;
      }
      return isGlass(m) ? kit.glass() : m;
    };
    mesh.material = Array.isArray(mesh.material) ? mesh.material.map(adapt) : adapt(mesh.material);
  });
  const wrapper = new THREE.Group();
  wrapper.name = 'part-model';
  wrapper.scale.setScalar(M_TO_MM);
  wrapper.add(clone);
  return wrapper;
}

type Side = 'min' | 'max' | 'center';
/** Per axis: which face of the model's box goes to which coordinate (mm); absent: unchanged. */
export type Alignment = Partial<Record<'x' | 'y' | 'z', [Side, number]>>;

/** The box of `obj` in its parent's coordinates (mm). */
export function boxInParent(obj: THREE.Object3D): THREE.Box3 {
  const parent = obj.parent;
  obj.parent = null;
  obj.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(obj);
  obj.parent = parent;
  obj.updateMatrixWorld(true);
  return box;
}

/** Moves `obj` so that its box's faces (or centres) sit at the given coordinates. */
export function align(obj: THREE.Object3D, to: Alignment): void {
  const box = boxInParent(obj);
  if (box.isEmpty()) return;
  const c = box.getCenter(new THREE.Vector3());
  for (const axis of ['x', 'y', 'z'] as const) {
    const a = to[axis];
    if (!a) continue;
    const [side, at] = a;
    const from = side === 'min' ? box.min[axis] : side === 'max' ? box.max[axis] : c[axis];
    obj.position[axis] += at - from;
  }
}

/** Replaces `old` in its parent by `next`, at the same index (the draw order stays the same). */
function swap(old: THREE.Object3D, next: THREE.Object3D): void {
  const parent = old.parent!;
  const i = parent.children.indexOf(old);
  old.parent = null;
  next.parent = parent;
  parent.children[i] = next;
}

/** A holder with the procedural group's name and userData, holding the model instead. */
function holderFor(old: THREE.Object3D, model: THREE.Object3D): THREE.Group {
  const g = new THREE.Group();
  g.name = old.name;
  g.userData = { ...old.userData, model: true };
  g.add(model);
  return g;
}

/** Procedural box of a group, in build coordinates (the build group is at the identity). */
function worldBox(o: THREE.Object3D): THREE.Box3 {
  o.updateWorldMatrix(true, true);
  return new THREE.Box3().setFromObject(o);
}

/** The procedural GPU's top (+Y): its backplate (the power connector above it is left out). */
const GPU_TOP_ABOVE_SLOT = 3.5;

/**
 * Replaces the procedural groups of the parts in `templates` by their models. `group` is the
 * build group of buildBuildGroup (mm, at the identity); returns the part IDs drawn as models.
 */
export function applyPartModels(
  group: THREE.Group,
  templates: ModelTemplates,
  kit: MaterialKit,
  layout: CaseLayout,
  warnings: string[],
): string[] {
  const used = new Set<string>();
  group.updateMatrixWorld(true);
  const children = [...group.children];
  const withModel = (c: THREE.Object3D) =>
    typeof c.userData.partId === 'string' && templates.has(c.userData.partId as string);
  // the case first: its anchors move procedural groups that other models are then fitted to
  const pcCase = children.find((c) => c.userData.category === 'PCCase' && withModel(c));
  if (pcCase) {
    const template = templates.get(pcCase.userData.partId as string)!;
    const model = modelInstance(template, kit);
    align(model, { x: ['center', 0], y: ['min', 0], z: ['center', 0] });
    const holder = holderFor(pcCase, model);
    swap(pcCase, holder);
    used.add(pcCase.userData.partId as string);
    const own = caseAnchors(model);
    // without anchors of its own, the build goes inside the model's measured interior (case-interior.ts)
    applyAnchors(
      group,
      own.size ? own : interiorAnchors(group, boxInParent(model), layout, caseWallMm(template), warnings),
      layout,
      warnings,
    );
  }
  for (const child of children) {
    if (child === pcCase || !withModel(child)) continue;
    const id = child.userData.partId as string;
    const category = child.userData.category as Category;
    const template = templates.get(id)!;
    const model = modelInstance(template, kit);
    const p = child.position;
    switch (category) {
      case 'GPU':
        align(model, { x: ['max', p.x], y: ['max', p.y + GPU_TOP_ABOVE_SLOT], z: ['min', p.z] });
        break;
      case 'CPUCooler': {
        if (child.userData.type === 'liquid') {
          const pump = child.getObjectByName('pump');
          if (!pump) {
            warnings.push(`CPUCooler ${id}: no pump to replace; drew the procedural cooler`);
            continue;
          }
          const wrapped = new THREE.Group();
          wrapped.name = 'pump';
          wrapped.userData = { model: true };
          wrapped.add(model);
          align(model, { x: ['max', pump.position.x], y: ['center', pump.position.y], z: ['center', pump.position.z] });
          swap(pump, wrapped);
          child.userData = { ...child.userData, model: true };
          used.add(id);
          continue;
        }
        align(model, { x: ['max', p.x], y: ['center', p.y], z: ['center', p.z] });
        break;
      }
      case 'Motherboard': {
        const box = worldBox(child);
        align(model, { x: ['max', box.max.x], y: ['max', p.y], z: ['min', p.z] });
        break;
      }
      case 'RAM': {
        const box = worldBox(child);
        const c = box.getCenter(new THREE.Vector3());
        align(model, { x: ['max', box.max.x], y: ['center', c.y], z: ['center', c.z] });
        break;
      }
      case 'PSU': {
        model.quaternion.copy(child.quaternion);
        const c = worldBox(child).getCenter(new THREE.Vector3());
        align(model, { x: ['center', c.x], y: ['center', c.y], z: ['center', c.z] });
        break;
      }
      case 'CaseFan': {
        // the holder sits at the slot centre; its one child is the fan turned from +Z to the slot's inward
        // (the holder keeps the slot centre as its position, as the procedural one)
        const fan = child.children[0];
        if (fan) model.quaternion.copy(fan.quaternion);
        align(model, { x: ['center', 0], y: ['center', 0], z: ['center', 0] });
        const holder = holderFor(child, model);
        holder.position.copy(child.position);
        swap(child, holder);
        used.add(id);
        continue;
      }
      default:
        warnings.push(`${category} ${id}: a model for this category is not drawn; drew the procedural part`);
        continue;
    }
    swap(child, holderFor(child, model));
    used.add(id);
  }
  return [...used].sort();
}

/** Anchors of a placed case model, by name, in build coordinates (mm). */
export function caseAnchors(model: THREE.Object3D): Map<string, THREE.Vector3> {
  const out = new Map<string, THREE.Vector3>();
  const root = model.parent ?? model;
  root.updateWorldMatrix(true, true);
  model.traverse((o) => {
    if (o.name.startsWith('anchor_') && !out.has(o.name)) out.set(o.name, o.getWorldPosition(new THREE.Vector3()));
  });
  return out;
}

/** The procedural groups that sit on the board and move with it. */
function onBoard(c: THREE.Object3D): boolean {
  const cat = c.userData.category as string;
  if (cat === 'Storage') return c.userData.formFactor === 'M.2';
  return (
    cat === 'Motherboard' ||
    cat === 'CPU' ||
    cat === 'GPU' ||
    cat === 'RAM' ||
    (cat === 'CPUCooler' && c.userData.type === 'air')
  );
}

/** Moves the procedural layout to a case model's anchors, its own or its interior's (see the file's comment). */
function applyAnchors(
  group: THREE.Group,
  anchors: ReadonlyMap<string, THREE.Vector3>,
  layout: CaseLayout,
  warnings: string[],
): void {
  if (anchors.size === 0) return;
  const tray = anchors.get(CASE_ANCHORS.motherboardTray);
  if (tray) {
    // the board's rear-top corner on the tray
    const delta = tray.clone().sub(new THREE.Vector3(layout.trayX, layout.boardTopY, layout.boardRearZ));
    for (const c of group.children) if (onBoard(c)) c.position.add(delta);
    // an AIO's pump sits on the CPU; its radiator and tubes stay on the case's mounts
    for (const c of group.children) {
      if (c.userData.category === 'CPUCooler' && c.userData.type === 'liquid')
        c.getObjectByName('pump')?.position.add(delta);
    }
    if (group.children.some((c) => c.userData.category === 'Cables'))
      warnings.push('case model anchors: cables are drawn for the case layout, not the anchors');
  }
  const slot = anchors.get(CASE_ANCHORS.gpuSlot);
  const gpus = group.children.filter((c) => c.userData.category === 'GPU');
  if (slot && gpus.length > 0) {
    const delta = slot.clone().sub(gpus[0]!.position);
    for (const g of gpus) g.position.add(delta);
  }
  const bay = anchors.get(CASE_ANCHORS.psuBay);
  const psu = group.children.find((c) => c.userData.category === 'PSU');
  if (bay && psu) {
    const c = worldBox(psu).getCenter(new THREE.Vector3());
    psu.position.add(bay.clone().sub(c));
  }
  for (const c of group.children) {
    if (c.userData.category !== 'CaseFan' || typeof c.userData.slot !== 'string') continue;
    const at = anchors.get(`${CASE_ANCHORS.fanPrefix}${(c.userData.slot as string).replace('-', '_')}`);
    if (at) c.position.copy(at);
  }
}

/**
 * A part's model alone (part thumbnails, `models preview`), centred on the origin in mm; a GPU
 * stood on its long edge as the procedural one is (build-scene.ts buildPartModel).
 */
export function loneModel(part: Part, template: THREE.Object3D, kit: MaterialKit): THREE.Object3D {
  const model = modelInstance(template, kit);
  if (part.category === 'GPU') model.rotation.z = -Math.PI / 2;
  align(model, { x: ['center', 0], y: ['center', 0], z: ['center', 0] });
  const wrapper = new THREE.Group();
  wrapper.add(model);
  wrapper.name = `${part.category}:${part.id}`;
  wrapper.userData = { category: part.category, partId: part.id, warnings: [], model: true };
  return wrapper;
}
