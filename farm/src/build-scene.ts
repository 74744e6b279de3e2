/**
 * The model-only entry: builds a whole PC (or one part) as a three.js object tree from
 * catalog data, with no DOM and no WebGL, so it runs in Node (tests) and in the stage page.
 *
 * The build group is in case coordinates, millimetres (see layout/case-layout.ts): origin at
 * the centre of the case floor, +y up, +z toward the front, the window side on -x.
 * Each part is a child group named `<Category>:<partId>` with `userData.category`,
 * `userData.partId` (and `userData.slot` for case fans), merged to one mesh per material.
 */
import * as THREE from 'three';
import type { CaseFanSpecs, Category, Part, SpecsByCategory } from '../../src/model/part.js';
import type { InteractiveState } from '../../src/model/interactive-state.js';
import type { StageBuild, StageDetail } from '../../src/model/stage-contract.js';
import { canonicalBuild } from './layout/canonical-build.js';
import {
  computeCaseLayout,
  boardToCase,
  chamberCenterX,
  FRONT_ZONE,
  WALL,
  type CaseLayout,
} from './layout/case-layout.js';
import { dimmFillOrder } from './layout/board-layout.js';
import { caseStyle, normalizeSpecs } from '../../src/model/normalize-specs.js';
import { applyPartModels, type ModelTemplates } from './layout/model-placement.js';
import { placeFans, placeRadiator, type Placement } from './layout/placement.js';
import { buildAirCooler } from './models/air-cooler.js';
import { buildPump, buildRadiator, buildTubes, PUMP_FITTINGS, RADIATOR_CORE } from './models/aio.js';
import { buildCables, type CableEnds } from './models/cables.js';
import { buildCase } from './models/case.js';
import { buildCpu, CPU_HEIGHT } from './models/cpu.js';
import { buildFan } from './models/fan.js';
import { buildGpu, CARD_HEIGHT, powerConnector } from './models/gpu.js';
import { atx24Pin, buildMotherboard, EPS_8PIN } from './models/motherboard.js';
import { buildPsu } from './models/psu.js';
import { buildRamStick, DIMM_LENGTH } from './models/ram.js';
import { buildStorage } from './models/storage.js';
import { countTriangles } from './util/geometry.js';
import { MaterialKit, type RgbSettings } from './util/materials.js';
import { mergeByMaterial } from './util/merge.js';

export interface BuiltBuild {
  group: THREE.Group;
  warnings: string[];
  triangles: number;
  /** part IDs drawn as artists' models, sorted */
  models: string[];
  /** the case frame actually drawn, fan and radiator placement (for tests and debugging) */
  layout: CaseLayout | null;
  placement: Placement;
  kit: MaterialKit;
}

type Normalized<C extends Category> = { id: string; specs: SpecsByCategory[C]; name: string; raw: unknown };

/** The parts of a category as a clean list (the input is JSON from the Node side: trust nothing). */
function partsOf<C extends Category>(build: StageBuild, category: C, warnings: string[]): Normalized<C>[] {
  const raw = (build?.parts as Record<string, unknown> | undefined)?.[category];
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return list
    .filter((p): p is Part<C> => p !== null && typeof p === 'object')
    .map((p, i) => ({
      id: typeof p.id === 'string' ? p.id : `${category}-${i + 1}`,
      specs: normalizeSpecs(category, p, warnings),
      name: typeof p.name === 'string' ? p.name : '',
      raw: p,
    }));
}

function firstOf<C extends Category>(list: Normalized<C>[], category: C, warnings: string[]): Normalized<C> | null {
  if (list.length > 1) warnings.push(`${list.length} ${category} parts in the build; drew the first`);
  return list[0] ?? null;
}

function rgbSettings(state: InteractiveState | null | undefined): RgbSettings {
  const rgb = state?.rgb;
  const color = typeof rgb?.color === 'string' && /^#[0-9a-f]{6}$/i.test(rgb.color) ? rgb.color.toLowerCase() : null;
  return { color, off: rgb?.mode === 'off' };
}

function named(
  g: THREE.Object3D,
  category: Category | 'Cables',
  id: string,
  extra: Record<string, unknown> = {},
): THREE.Object3D {
  // not merged here: the stage merges the whole build once (merge.ts), tests need the groups
  g.name = `${category}:${id}`;
  g.userData = { ...g.userData, category, partId: id, ...extra };
  return g;
}

/** A sensible default for builds that lack a category the frame needs. */
function fallback<C extends Category>(category: C, warnings: string[], why: string): Normalized<C> {
  warnings.push(why);
  return { id: 'default', specs: normalizeSpecs(category, { specs: {} as never }, []), name: '', raw: null };
}

/** Details a caller can leave out (tests compare frames with and without each). */
export type Detail = StageDetail;

export interface BuildOptions {
  omit?: readonly Detail[];
  /** part ID -> parsed model (glb-library.ts): those parts are drawn as their models (layout/model-placement.ts) */
  models?: ModelTemplates;
}

export function buildBuildGroup(input: StageBuild, options: BuildOptions = {}): BuiltBuild {
  // the order the caller listed the parts in must not change the picture
  const build = canonicalBuild(input);
  const omit = new Set(options.omit ?? []);
  const warnings: string[] = [];
  const state = (build && typeof build === 'object' ? build.state : null) ?? null;
  const kit = new MaterialKit(rgbSettings(state));
  const group = new THREE.Group();
  group.name = 'build';

  const cases = partsOf(build, 'PCCase', warnings);
  const boards = partsOf(build, 'Motherboard', warnings);
  const all = (['CPU', 'CPUCooler', 'GPU', 'RAM', 'Storage', 'PSU', 'CaseFan'] as const).map((c) =>
    partsOf(build, c, warnings),
  );
  const [cpus, coolers, gpus, rams, drives, psus, fans] = all as [
    Normalized<'CPU'>[],
    Normalized<'CPUCooler'>[],
    Normalized<'GPU'>[],
    Normalized<'RAM'>[],
    Normalized<'Storage'>[],
    Normalized<'PSU'>[],
    Normalized<'CaseFan'>[],
  ];

  const pcCase =
    firstOf(cases, 'PCCase', warnings) ??
    fallback('PCCase', warnings, 'no PCCase in the build; drew a default ATX mid tower');
  const board =
    firstOf(boards, 'Motherboard', warnings) ??
    fallback('Motherboard', warnings, 'no Motherboard in the build; drew a default ATX board');
  const cpu = firstOf(cpus, 'CPU', warnings);
  const cooler = firstOf(coolers, 'CPUCooler', warnings);
  const psu = firstOf(psus, 'PSU', warnings);

  const layout = computeCaseLayout(
    pcCase.specs,
    board.specs,
    psu?.specs ?? null,
    warnings,
    caseStyle(pcCase.raw, pcCase.specs),
  );
  const bl = layout.board;
  group.add(named(buildCase(kit, layout, pcCase.specs), 'PCCase', pcCase.id));

  const mb = buildMotherboard(kit, board.specs, bl, board.name);
  mb.position.set(layout.boardFaceX, layout.boardTopY, layout.boardRearZ);
  group.add(named(mb, 'Motherboard', board.id));

  const socket = boardToCase(layout, bl.socket.u, bl.socket.v);
  if (cpu) {
    const c = buildCpu(kit, cpu.specs);
    c.position.set(layout.boardFaceX, socket.y, socket.z);
    group.add(named(c, 'CPU', cpu.id));
  }

  // cooler and radiator
  let radiator: Placement['radiator'] = null;
  if (cooler) {
    const top = new THREE.Vector3(layout.boardFaceX - CPU_HEIGHT, socket.y, socket.z);
    if (cooler.specs.type === 'air') {
      const room = top.x - layout.windowX - 3;
      let specs = cooler.specs;
      if (specs.heightMm > room) {
        warnings.push(
          `CPUCooler ${cooler.id}: ${Math.round(specs.heightMm)} mm tower is taller than the case allows (${Math.round(room)} mm); drawn at ${Math.round(room)} mm`,
        );
        specs = { ...specs, heightMm: room };
      }
      const air = buildAirCooler(kit, specs, cooler.name);
      air.position.copy(top);
      group.add(named(air, 'CPUCooler', cooler.id, { type: 'air' }));
    } else {
      const parts = new THREE.Group();
      const pump = buildPump(kit, cooler.specs, cooler.name);
      pump.name = 'pump'; // a part model replaces this alone (layout/model-placement.ts)
      pump.position.copy(top);
      parts.add(pump);
      radiator = placeRadiator(layout, cooler.specs, state?.radiator?.slot, warnings);
      if (radiator) {
        const rad = buildRadiator(kit, cooler.specs, cooler.name);
        const inward = new THREE.Vector3(...radiator.slots[0]!.inward);
        const centre = radiator.slots
          .reduce((acc, s) => acc.add(new THREE.Vector3(...s.center)), new THREE.Vector3())
          .divideScalar(radiator.slots.length)
          .addScaledVector(inward, -(3 + 12.5));
        // local z -> into the case; local x -> along the panel's row (z for top/bottom, y otherwise)
        const along =
          radiator.panel === 'top' || radiator.panel === 'bottom'
            ? new THREE.Vector3(0, 0, 1)
            : new THREE.Vector3(0, 1, 0);
        const third = new THREE.Vector3().crossVectors(inward, along);
        rad.quaternion.setFromRotationMatrix(new THREE.Matrix4().makeBasis(along, third, inward));
        rad.position.copy(centre);
        parts.add(rad);
        // tubes into the end tank nearest the pump
        const half = (rad.userData.length as number) / 2 - 11;
        const ends = [centre.clone().addScaledVector(along, half), centre.clone().addScaledVector(along, -half)].map(
          (p) => p.addScaledVector(inward, RADIATOR_CORE + 2),
        );
        const fittings = PUMP_FITTINGS.map((f) => f.clone().add(top));
        const end = ends[0]!.distanceTo(fittings[0]!) < ends[1]!.distanceTo(fittings[0]!) ? ends[0]! : ends[1]!;
        if (!omit.has('aio-tubes')) parts.add(buildTubes(kit, fittings, end, inward, tubeColor(cooler.specs.color)));
      }
      const tubes = radiator !== null && !omit.has('aio-tubes');
      group.add(named(parts, 'CPUCooler', cooler.id, { type: 'liquid', radiator: radiator?.panel ?? null, tubes }));
    }
  }

  // graphics cards in the x16 slots, top first
  const pcie: THREE.Vector3[] = [];
  gpus.forEach((gpu, i) => {
    const v = bl.pcieV[i];
    if (v === undefined) {
      warnings.push(`GPU ${gpu.id}: the board has no free x16 slot; not drawn`);
      return;
    }
    const card = buildGpu(kit, gpu.specs, gpu.name);
    const { y } = boardToCase(layout, 0, v);
    const z0 = -layout.depth / 2 + WALL + 8;
    card.position.set(layout.boardFaceX, y, z0);
    pcie.push(powerConnector(gpu.specs).add(card.position));
    const room = layout.depth / 2 - WALL - z0 - 4;
    if (gpu.specs.lengthMm > Math.min(room, pcCase.specs.maxGpuLengthMm)) {
      warnings.push(
        `GPU ${gpu.id}: ${Math.round(gpu.specs.lengthMm)} mm card is longer than the case allows (${Math.round(Math.min(room, pcCase.specs.maxGpuLengthMm))} mm)`,
      );
    }
    if (layout.boardFaceX - CARD_HEIGHT < layout.windowX)
      warnings.push(`GPU ${gpu.id}: the case is too narrow for the card`);
    group.add(named(card, 'GPU', gpu.id, { slot: i }));
  });

  // RAM: every stick of every kit, in the board's fill order
  const sticks = rams.flatMap((r) => Array.from({ length: r.specs.modules }, () => r));
  const order = dimmFillOrder(bl.dimmU.length, sticks.length);
  if (sticks.length > bl.dimmU.length)
    warnings.push(`${sticks.length} RAM sticks but ${bl.dimmU.length} DIMM slots; drew ${bl.dimmU.length}`);
  const stickY = layout.boardTopY - (bl.dimmV[0] + bl.dimmV[1]) / 2;
  order.forEach((slotIndex, k) => {
    const r = sticks[k]!;
    const s = buildRamStick(kit, r.specs);
    s.position.set(layout.boardFaceX, stickY, layout.boardRearZ + bl.dimmU[slotIndex]!);
    group.add(named(s, 'RAM', r.id, { dimm: slotIndex, length: DIMM_LENGTH }));
  });

  placeDrives(group, kit, layout, drives, warnings);

  // power cables, when there is a PSU to feed them
  if (psu && !omit.has('cables')) {
    const origin = new THREE.Vector3(layout.boardFaceX, layout.boardTopY, layout.boardRearZ);
    const ends: CableEnds = {
      atx: bl.width - 20 > (bl.dimmU[bl.dimmU.length - 1] ?? 0) + 8 ? atx24Pin(bl).add(origin) : null,
      eps: EPS_8PIN.clone().add(origin),
      pcie,
    };
    const light = new THREE.Color(pcCase.specs.color).getHSL({ h: 0, s: 0, l: 0 }).l > 0.6;
    group.add(
      named(buildCables(kit, layout, ends, light), 'Cables', 'set', { atx: !!ends.atx, eps: true, pcie: pcie.length }),
    );
  }

  if (psu) {
    const p = buildPsu(kit, psu.specs, psu.name);
    const b = layout.psu;
    // centred in its box; on its side (turned 90 degrees about z) behind a dual-chamber tray
    if (layout.dualChamber) p.rotation.z = Math.PI / 2;
    p.position.set((b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2);
    group.add(named(p, 'PSU', psu.id, { hidden: layout.shroud }));
  }

  const placedFans = placeFans(layout, fans, state, radiator, warnings);
  const fanNames = new Map(fans.map((f) => [f.id, f.name]));
  for (const f of placedFans) {
    const label = brandOf(fanNames.get(f.partId) ?? '');
    group.add(
      named(placeFan(kit, f.specs, f.slot.center, f.slot.inward, label), 'CaseFan', f.partId, { slot: f.slot.id }),
    );
  }

  const models = options.models?.size ? applyPartModels(group, options.models, kit, layout, warnings) : [];
  return {
    group,
    warnings,
    triangles: countTriangles(group),
    models,
    layout,
    placement: { fans: placedFans, radiator },
    kit,
  };
}

/** Coolant tubes are black, or white on white coolers. */
function tubeColor(cooler: string): string {
  const c = new THREE.Color(cooler);
  return (c.r + c.g + c.b) / 3 > 0.6 ? '#e4e5e8' : '#141517';
}

/** The brand of a catalog name: its first word ("Lian Li ..." -> "LIAN"), for stickers and logos. */
export function brandOf(name: string): string {
  return (name.trim().split(/\s+/)[0] ?? '').replace(/[^\p{L}\p{N}!.-]/gu, '').slice(0, 12);
}

function placeFan(
  kit: MaterialKit,
  specs: CaseFanSpecs,
  center: [number, number, number],
  inward: [number, number, number],
  label: string,
): THREE.Group {
  const fan = buildFan(kit, { sizeMm: specs.sizeMm, color: specs.color, rgb: specs.rgb, label });
  fan.traverse((o) => (o.castShadow = o.receiveShadow = true));
  const holder = new THREE.Group();
  fan.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), new THREE.Vector3(...inward));
  holder.add(fan);
  holder.position.set(...center);
  return holder;
}

/** M.2 drives on the board's sockets; 2.5" behind the tray; 3.5" in a cage at the bottom front. */
function placeDrives(
  group: THREE.Group,
  kit: MaterialKit,
  layout: CaseLayout,
  drives: Normalized<'Storage'>[],
  warnings: string[],
): void {
  let m2 = 0;
  let ssd = 0;
  let hdd = 0;
  for (const d of drives) {
    let ff = d.specs.formFactor;
    if (ff === 'M.2' && m2 >= layout.board.m2.length) {
      warnings.push(`Storage ${d.id}: no free M.2 socket; mounted behind the tray`);
      ff = '2.5';
    }
    const model = buildStorage(kit, { ...d.specs, formFactor: ff });
    if (ff === 'M.2') {
      const s = layout.board.m2[m2++]!;
      const p = boardToCase(layout, s.u, s.v);
      model.position.set(layout.boardFaceX, p.y, p.z);
    } else if (ff === '2.5') {
      // on the back of the tray, thin side against it
      model.rotation.z = -Math.PI / 2;
      model.position.set(layout.trayX + 2, layout.height - WALL - 80 - (ssd++ % 4) * 105, -layout.depth / 2 + 120);
    } else {
      const y = WALL + 2 + (hdd++ % 3) * 30;
      model.position.set(chamberCenterX(layout), y, layout.depth / 2 - WALL - FRONT_ZONE - 80);
    }
    group.add(named(model, 'Storage', d.id, { formFactor: ff }));
  }
}

/**
 * One part on its own (part thumbnails), centred on the origin in millimetres.
 * A case is drawn empty; a liquid cooler shows its pump and radiator side by side.
 */
export function buildPartModel(part: Part, kit = new MaterialKit()): THREE.Object3D {
  const warnings: string[] = [];
  const category = (part && typeof part === 'object' ? part.category : undefined) as Category | undefined;
  const name = part && typeof part === 'object' && typeof part.name === 'string' ? part.name : '';
  let model: THREE.Object3D;
  switch (category) {
    case 'PCCase': {
      const specs = normalizeSpecs('PCCase', part as Part<'PCCase'>, warnings);
      const board = normalizeSpecs('Motherboard', { specs: { formFactor: specs.maxBoard } as never }, []);
      model = buildCase(kit, computeCaseLayout(specs, board, null, warnings), specs);
      break;
    }
    case 'Motherboard': {
      const specs = normalizeSpecs('Motherboard', part as Part<'Motherboard'>, warnings);
      const layout = computeCaseLayout(normalizeSpecs('PCCase', { specs: {} as never }, []), specs, null, []);
      model = buildMotherboard(kit, specs, layout.board, name);
      break;
    }
    case 'CPU':
      model = buildCpu(kit, normalizeSpecs('CPU', part as Part<'CPU'>, warnings));
      break;
    case 'CPUCooler': {
      const specs = normalizeSpecs('CPUCooler', part as Part<'CPUCooler'>, warnings);
      if (specs.type === 'air') model = buildAirCooler(kit, specs, name);
      else {
        model = new THREE.Group();
        const rad = buildRadiator(kit, specs, name);
        rad.rotation.x = -Math.PI / 2;
        const pump = buildPump(kit, specs, name);
        pump.position.set(0, 0, 110);
        model.add(rad, pump);
      }
      break;
    }
    case 'GPU':
      // stood on its long edge, fans to the side and the named edge up, as a product shot shows it
      model = buildGpu(kit, normalizeSpecs('GPU', part as Part<'GPU'>, warnings), name);
      model.rotation.z = -Math.PI / 2;
      break;
    case 'RAM':
      model = buildRamStick(kit, normalizeSpecs('RAM', part as Part<'RAM'>, warnings));
      break;
    case 'Storage':
      model = buildStorage(kit, normalizeSpecs('Storage', part as Part<'Storage'>, warnings));
      break;
    case 'PSU':
      model = buildPsu(kit, normalizeSpecs('PSU', part as Part<'PSU'>, warnings), name);
      break;
    case 'CaseFan': {
      const specs = normalizeSpecs('CaseFan', part as Part<'CaseFan'>, warnings);
      model = buildFan(kit, { sizeMm: specs.sizeMm, color: specs.color, rgb: specs.rgb, label: brandOf(name) });
      break;
    }
    default:
      model = new THREE.Group();
  }
  const merged = mergeByMaterial(model);
  const bb = new THREE.Box3().setFromObject(merged);
  if (!bb.isEmpty()) merged.position.sub(bb.getCenter(new THREE.Vector3()));
  // the centring offset lives inside a wrapper, so scaling the returned object (mm -> m) scales it too
  const wrapper = new THREE.Group();
  wrapper.add(merged);
  wrapper.name = `${category ?? 'unknown'}:${typeof part?.id === 'string' ? part.id : '?'}`;
  wrapper.userData = { category, partId: part?.id, warnings };
  return wrapper;
}
