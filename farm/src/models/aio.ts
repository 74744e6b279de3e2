/**
 * An all-in-one liquid cooler: the pump block on the CPU, the radiator with its fans, and
 * the two tubes between them.
 *
 * Pump local frame: origin on the CPU's top surface, block toward -x (the window).
 * Radiator local frame: long axis along x, centred; the core spans z 0..27 from the panel
 * and the fans sit inside it (z 27..52); +z points into the case.
 */
import * as THREE from 'three';
import type { CoolerSpecs } from '../../../src/model/part.js';
import { box, cylinder, paintRainbow } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';
import { buildFan } from './fan.js';

export const RADIATOR_CORE = 27;
const TANK = 22;

export function buildPump(kit: MaterialKit, specs: CoolerSpecs): THREE.Group {
  const g = new THREE.Group();
  box(g, kit.metal('#b87333', 0.35), [4, 50, 50], [-2, 0, 0]);
  cylinder(g, kit.solid(specs.color, 0.35, 0.4), 32, 34, [-21, 0, 0], 'x', 28);
  // cap: glossy dark face with a glowing ring (or a plain bezel)
  cylinder(g, kit.solid('#0c0d10', 0.12, 0.2), 27, 2, [-38.5, 0, 0], 'x', 28);
  const ring = specs.rgb
    ? new THREE.Mesh(paintRainbow(new THREE.RingGeometry(22, 27, 32, 1), 'angle'), kit.rgb())
    : new THREE.Mesh(new THREE.RingGeometry(22, 27, 32, 1), kit.metal('#9da2a8', 0.3));
  ring.rotation.y = -Math.PI / 2;
  ring.position.x = -39.7;
  g.add(ring);
  // tube fittings on the top side of the block
  for (const z of [-10, 10]) cylinder(g, kit.solid('#2a2b2f', 0.4, 0.3), 6, 14, [-26, 34, z], 'y', 12);
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}

export function buildRadiator(kit: MaterialKit, specs: CoolerSpecs): THREE.Group {
  const g = new THREE.Group();
  const fan = specs.fanSizeMm;
  const n = Math.max(1, Math.round(specs.radiatorMm / fan));
  const coreLen = n * fan + (n - 1) * 4;
  const w = fan + 4;
  const body = kit.solid(specs.color, 0.45, 0.35);
  // end tanks
  for (const s of [-1, 1]) box(g, body, [TANK, w, RADIATOR_CORE], [s * (coreLen / 2 + TANK / 2), 0, RADIATOR_CORE / 2]);
  // core: side rails and fins across the length
  box(g, body, [coreLen, 5, RADIATOR_CORE], [0, w / 2 - 2.5, RADIATOR_CORE / 2]);
  box(g, body, [coreLen, 5, RADIATOR_CORE], [0, -w / 2 + 2.5, RADIATOR_CORE / 2]);
  box(g, kit.solid('#111214', 0.8, 0.2), [coreLen, w - 10, RADIATOR_CORE - 4], [0, 0, RADIATOR_CORE / 2]);
  const finMat = kit.metal('#3b3e44', 0.5);
  const fins = Math.floor(coreLen / 7);
  for (let i = 0; i < fins; i++) box(g, finMat, [0.8, w - 10, RADIATOR_CORE - 2], [-coreLen / 2 + (i + 0.5) * (coreLen / fins), 0, RADIATOR_CORE / 2]);
  for (let i = 0; i < n; i++) {
    const f = buildFan(kit, { sizeMm: fan, color: fanColor(specs.color), rgb: specs.rgb });
    f.position.set(-coreLen / 2 + fan / 2 + i * (fan + 4), 0, RADIATOR_CORE + 12.5);
    g.add(f);
  }
  g.userData.length = coreLen + 2 * TANK;
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}

/**
 * The two coolant tubes from the pump's fittings to the radiator's end tank (case coordinates);
 * `approach` is the unit direction from the tank into the case, along which the tubes leave it.
 */
export function buildTubes(kit: MaterialKit, from: THREE.Vector3, to: THREE.Vector3, approach: THREE.Vector3): THREE.Group {
  const g = new THREE.Group();
  const mat = kit.solid('#161719', 0.55, 0.05);
  for (const dz of [-10, 10]) {
    const a = from.clone().add(new THREE.Vector3(0, 0, dz));
    const b = to.clone().add(new THREE.Vector3(0, 0, dz * 1.2));
    // rise out of the pump, sag a little, then come into the tank
    const mid = a.clone().lerp(b, 0.5);
    mid.x = Math.min(a.x, b.x) - 15;
    const curve = new THREE.CatmullRomCurve3([a, a.clone().add(new THREE.Vector3(-8, 30, 0)), mid, b.clone().addScaledVector(approach, 40), b]);
    const tube = new THREE.Mesh(new THREE.TubeGeometry(curve, 28, 5.5, 8, false), mat);
    tube.castShadow = true;
    g.add(tube);
  }
  return g;
}

/** White AIOs come with white fans; everything else with black ones. */
function fanColor(color: string): string {
  const c = new THREE.Color(color);
  return (c.r + c.g + c.b) / 3 > 0.6 ? '#e9eaec' : '#1b1c1f';
}
