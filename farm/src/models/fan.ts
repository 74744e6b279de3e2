/**
 * A fan: square frame with a round throat, hub, swept blades and an optional RGB ring.
 * Local frame: axis along +z, centred at the origin, 25 mm thick (case fans, cooler fans;
 * GPU fans use `frameless`).
 */
import * as THREE from 'three';
import type { MaterialKit } from '../util/materials.js';
import { cylinder, paintRainbow } from '../util/geometry.js';

export interface FanOptions {
  sizeMm: number;
  color: string;
  rgb: boolean;
  thickness?: number;
  blades?: number;
  /** GPU fans: no square frame, just a thin ring */
  frameless?: boolean;
}

const frameCache = new Map<string, THREE.BufferGeometry>();
const bladeCache = new Map<string, THREE.BufferGeometry>();

function frameGeometry(size: number, thickness: number): THREE.BufferGeometry {
  const key = `${size}:${thickness}`;
  let g = frameCache.get(key);
  if (!g) {
    const h = size / 2;
    const r = 2 + size * 0.04;
    const shape = new THREE.Shape();
    // rounded square outline
    shape.moveTo(-h + r, -h);
    shape.lineTo(h - r, -h);
    shape.quadraticCurveTo(h, -h, h, -h + r);
    shape.lineTo(h, h - r);
    shape.quadraticCurveTo(h, h, h - r, h);
    shape.lineTo(-h + r, h);
    shape.quadraticCurveTo(-h, h, -h, h - r);
    shape.lineTo(-h, -h + r);
    shape.quadraticCurveTo(-h, -h, -h + r, -h);
    const hole = new THREE.Path();
    hole.absarc(0, 0, h * 0.94, 0, Math.PI * 2, true);
    shape.holes.push(hole);
    g = new THREE.ExtrudeGeometry(shape, { depth: thickness, bevelEnabled: false, curveSegments: 6 });
    g.translate(0, 0, -thickness / 2);
    frameCache.set(key, g);
  }
  return g;
}

/** One blade: a swept paddle from the hub to the tip, pitched about its radial axis. */
function bladeGeometry(inner: number, outer: number): THREE.BufferGeometry {
  const key = `${inner}:${outer}`;
  let g = bladeCache.get(key);
  if (!g) {
    const s = new THREE.Shape();
    const w = (outer - inner) * 0.55;
    s.moveTo(inner, -w * 0.3);
    s.quadraticCurveTo((inner + outer) / 2, -w * 0.55, outer, -w * 0.1);
    s.quadraticCurveTo(outer + 2, w * 0.35, outer - 4, w * 0.6);
    s.quadraticCurveTo((inner + outer) / 2, w * 0.35, inner, w * 0.3);
    s.lineTo(inner, -w * 0.3);
    g = new THREE.ShapeGeometry(s, 4);
    g.rotateX(0.55); // blade pitch
    bladeCache.set(key, g);
  }
  return g;
}

export function buildFan(kit: MaterialKit, o: FanOptions): THREE.Group {
  const size = o.sizeMm;
  const t = o.thickness ?? 25;
  const group = new THREE.Group();
  group.name = 'fan';
  const frameMat = kit.solid(o.color, 0.6, 0.05);
  if (!o.frameless) {
    group.add(new THREE.Mesh(frameGeometry(size, t), frameMat));
  } else {
    const ring = new THREE.Mesh(new THREE.TorusGeometry(size * 0.49, 1.6, 4, 28), frameMat);
    group.add(ring);
  }
  const r = size / 2;
  const hubR = r * 0.32;
  const hub = cylinder(group, kit.solid('#2a2b2f', 0.45, 0.2), hubR, t * 0.6, [0, 0, 0], 'z', 20);
  hub.name = 'hub';
  // a lighter badge on the hub so spinning direction and size read at a glance
  cylinder(group, kit.solid('#8a8d93', 0.35, 0.6), hubR * 0.55, t * 0.62, [0, 0, 0], 'z', 16);
  const blades = o.blades ?? (size >= 120 ? 7 : 9);
  const bladeMat = kit.sheet(o.frameless ? '#17181b' : shade(o.color), 0.5, 0.05);
  const geometry = bladeGeometry(hubR - 1, r * 0.92);
  for (let i = 0; i < blades; i++) {
    const b = new THREE.Mesh(geometry, bladeMat);
    b.rotation.z = (i / blades) * Math.PI * 2;
    group.add(b);
  }
  if (o.rgb) {
    // rings on both faces: fans are seen from inside and outside the case
    for (const z of [t / 2 + 0.3, -t / 2 - 0.3]) {
      const ringGeom = paintRainbow(new THREE.RingGeometry(r * 0.86, r * 0.93, 32, 1), 'angle');
      const ring = new THREE.Mesh(ringGeom, kit.rgb());
      ring.position.z = z;
      if (z < 0) ring.rotation.y = Math.PI;
      group.add(ring);
    }
    const hubGlow = paintRainbow(new THREE.CircleGeometry(hubR * 0.9, 16), 'angle');
    const glow = new THREE.Mesh(hubGlow, kit.rgb());
    glow.position.z = t * 0.31 + 0.2;
    group.add(glow);
  }
  return group;
}

/** Blades a little lighter than a black frame, or the frame colour for coloured fans. */
function shade(color: string): string {
  const c = new THREE.Color(color);
  const hsl = { h: 0, s: 0, l: 0 };
  c.getHSL(hsl);
  if (hsl.l < 0.15) c.setHSL(hsl.h, hsl.s, 0.16);
  return `#${c.getHexString()}`;
}
