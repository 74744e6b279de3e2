/**
 * An all-in-one liquid cooler: the pump head on the CPU (housing, a glossy cap with the
 * brand drawn on it and an RGB ring or a brushed bezel, two swivel fittings), the radiator
 * with its fans, and the two sleeved tubes between them.
 *
 * Pump local frame: origin on the CPU's top surface, block toward -x (the window).
 * Radiator local frame: long axis along x, centred; the core spans z 0..27 from the panel
 * and the fans sit inside it (z 27..52); +z points into the case.
 */
import * as THREE from 'three';
import type { CoolerSpecs } from '../../../src/model/part.js';
import { canvasTexture, fitText } from '../util/canvas-texture.js';
import { box, cylinder, paintRainbow, roundedBox, tube } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';
import { buildFan } from './fan.js';

export const RADIATOR_CORE = 27;
const TANK = 22;
/** where the tubes leave the pump head (pump-local): two fittings on its top side */
export const PUMP_FITTINGS = [new THREE.Vector3(-26, 40, -10), new THREE.Vector3(-26, 40, 10)];

export function buildPump(kit: MaterialKit, specs: CoolerSpecs, name = ''): THREE.Group {
  const g = new THREE.Group();
  const brand = (name.trim().split(/\s+/)[0] ?? '').toUpperCase();
  box(g, kit.metal('#b87333', 0.35), [4, 50, 50], [-2, 0, 0]);
  cylinder(g, kit.plastic(specs.color, 0.45), 33, 30, [-19, 0, 0], 'x', 40);
  cylinder(g, kit.brushed('#8d9299', 0.3), 33.5, 3, [-35, 0, 0], 'x', 40);
  // the cap: glossy dark glass with the brand, inside a glowing ring or a brushed bezel
  const cap = new THREE.Mesh(
    new THREE.CircleGeometry(27, 40),
    kit.textured(
      `pump-cap:${brand}`,
      () =>
        canvasTexture(256, 256, (ctx, w, h) => {
          ctx.fillStyle = '#0b0c0e';
          ctx.fillRect(0, 0, w, h);
          ctx.fillStyle = '#e8eaee';
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          if (brand) fitText(ctx, brand, w / 2, h / 2, w * 0.62, 48, 'bold', 'italic');
          ctx.strokeStyle = 'rgba(255,255,255,0.25)';
          ctx.lineWidth = 3;
          ctx.beginPath();
          ctx.arc(w / 2, h / 2, w * 0.3, Math.PI * 0.15, Math.PI * 0.85);
          ctx.stroke();
        }),
      '#0b0c0e',
      { roughness: 0.12, metalness: 0.2 },
    ),
  );
  cap.rotation.set(0, -Math.PI / 2, 0);
  cap.position.x = -36.8;
  cap.name = 'pump-cap';
  g.add(cap);
  const ring = specs.rgb
    ? new THREE.Mesh(paintRainbow(new THREE.RingGeometry(27, 32, 48, 1), 'angle'), kit.rgb())
    : new THREE.Mesh(new THREE.RingGeometry(27, 32, 48, 1), kit.brushed('#b7bcc2', 0.25));
  ring.rotation.y = -Math.PI / 2;
  ring.position.x = -36.9;
  ring.name = 'pump-ring';
  g.add(ring);
  // swivel fittings on the top side of the block
  const fitting = kit.brushed('#2a2b2f', 0.35);
  for (const f of PUMP_FITTINGS) {
    cylinder(g, fitting, 7, 12, [f.x, f.y - 8, f.z], 'y', 16);
    cylinder(g, fitting, 6, 6, [f.x, f.y - 1, f.z], 'y', 16);
  }
  g.traverse((o) => {
    const m = o as THREE.Mesh;
    if (m.isMesh && !(m.material as THREE.Material).transparent) o.castShadow = o.receiveShadow = true;
  });
  return g;
}

export function buildRadiator(kit: MaterialKit, specs: CoolerSpecs, name = ''): THREE.Group {
  const g = new THREE.Group();
  const fan = specs.fanSizeMm;
  const n = Math.max(1, Math.round(specs.radiatorMm / fan));
  const coreLen = n * fan + (n - 1) * 4;
  const w = fan + 4;
  const body = kit.paint(specs.color, 0.45);
  // end tanks (rounded) with the tube fittings on one of them
  for (const s of [-1, 1])
    roundedBox(g, body, [TANK, w, RADIATOR_CORE], [s * (coreLen / 2 + TANK / 2), 0, RADIATOR_CORE / 2], 3, 1);
  // core: side rails and fins across the length
  box(g, body, [coreLen, 5, RADIATOR_CORE], [0, w / 2 - 2.5, RADIATOR_CORE / 2]);
  box(g, body, [coreLen, 5, RADIATOR_CORE], [0, -w / 2 + 2.5, RADIATOR_CORE / 2]);
  box(g, kit.solid('#111214', 0.8, 0.2), [coreLen, w - 10, RADIATOR_CORE - 4], [0, 0, RADIATOR_CORE / 2]);
  const finMat = kit.metal('#3b3e44', 0.5);
  const fins = Math.floor(coreLen / 5);
  for (let i = 0; i < fins; i++)
    box(
      g,
      finMat,
      [0.6, w - 10, RADIATOR_CORE - 2],
      [-coreLen / 2 + (i + 0.5) * (coreLen / fins), 0, RADIATOR_CORE / 2],
    );
  const brand = (name.trim().split(/\s+/)[0] ?? '').toUpperCase();
  for (let i = 0; i < n; i++) {
    const f = buildFan(kit, { sizeMm: fan, color: fanColor(specs.color), rgb: specs.rgb, label: brand });
    f.position.set(-coreLen / 2 + fan / 2 + i * (fan + 4), 0, RADIATOR_CORE + 12.5);
    g.add(f);
  }
  g.userData.length = coreLen + 2 * TANK;
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}

/**
 * The two coolant tubes from the pump's fittings (`from`, case coordinates) to the
 * radiator's end tank (`to`); `approach` is the unit direction from the tank into the case,
 * along which the tubes leave it. Sleeved, with fittings at the tank.
 */
export function buildTubes(
  kit: MaterialKit,
  from: THREE.Vector3[],
  to: THREE.Vector3,
  approach: THREE.Vector3,
  color = '#161719',
): THREE.Group {
  const g = new THREE.Group();
  g.name = 'aio-tubes';
  const mat = kit.sleeve(color);
  const fitting = kit.brushed('#2a2b2f', 0.35);
  const side = new THREE.Vector3().crossVectors(approach, new THREE.Vector3(1, 0, 0));
  if (side.lengthSq() < 1e-6) side.set(0, 0, 1);
  side.normalize();
  from.forEach((a, k) => {
    const b = to.clone().addScaledVector(side, (k - 0.5) * 26);
    // rise out of the pump, sag a little toward the window, then come into the tank
    const mid = a.clone().lerp(b, 0.5);
    mid.x = Math.min(a.x, b.x) - 14 - k * 6;
    const pts = [
      a,
      a.clone().add(new THREE.Vector3(-6, 26, 0)),
      mid,
      b.clone().addScaledVector(approach, 46),
      b.clone().addScaledVector(approach, 6),
    ];
    tube(g, mat, pts, 5.5, { radial: 10, pitch: 6 });
    const f = new THREE.Mesh(new THREE.CylinderGeometry(7, 7, 12, 16), fitting);
    f.position.copy(b.clone().addScaledVector(approach, 4));
    f.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), approach);
    g.add(f);
  });
  g.traverse((o) => (o.castShadow = true));
  return g;
}

/** White AIOs come with white fans; everything else with black ones. */
function fanColor(color: string): string {
  const c = new THREE.Color(color);
  return (c.r + c.g + c.b) / 3 > 0.6 ? '#e9eaec' : '#1b1c1f';
}
