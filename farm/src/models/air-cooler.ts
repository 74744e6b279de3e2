/**
 * A tower air cooler: base plate, heat pipes, a fin stack as tall as the data says, a top
 * cover and its fan(s) on the intake (front) and exhaust faces. Local frame: origin on the
 * CPU's top surface, the tower rises toward -x; airflow runs along z (front to rear).
 */
import * as THREE from 'three';
import type { CoolerSpecs } from '../../../src/model/part.js';
import { box, cylinder, paintRainbow } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';
import { buildFan } from './fan.js';

const STACK_DEPTH = 50;

export function buildAirCooler(kit: MaterialKit, specs: CoolerSpecs): THREE.Group {
  const g = new THREE.Group();
  const h = specs.heightMm;
  const fan = specs.fanSizeMm;
  const finMat = kit.metal(finColor(specs.color), 0.4);
  const low = h < 80; // low-profile: fan on top blowing down, no tower
  box(g, kit.metal('#b87333', 0.35), [6, 40, 40], [-3, 0, 0]);

  if (low) {
    const fins = Math.max(4, Math.floor((fan - 10) / 3.5));
    const span = fan - 4;
    for (let i = 0; i < fins; i++) box(g, finMat, [h - 30, span, 0.5], [-6 - (h - 30) / 2, 0, -span / 2 + (i * span) / (fins - 1)]);
    if (specs.fanCount > 0) {
      const f = buildFan(kit, { sizeMm: Math.min(fan, 120), color: '#1b1c1f', rgb: specs.rgb, thickness: 15 });
      f.rotation.y = -Math.PI / 2;
      f.position.x = -h + 8;
      g.add(f);
    }
    shadows(g);
    return g;
  }

  const stackBottom = 36;
  const stackH = Math.max(20, h - stackBottom - 4);
  const pipe = kit.metal('#c88a52', 0.3);
  for (let i = 0; i < 4; i++) {
    const y = -21 + i * 14;
    cylinder(g, pipe, 3, h - 10, [-(h - 10) / 2 - 4, y, -6], 'x', 8);
    cylinder(g, pipe, 3, h - 10, [-(h - 10) / 2 - 4, y * 0.8, 8], 'x', 8);
  }
  // the fin stack: thin plates stacked along the tower's height
  const fins = Math.min(48, Math.floor(stackH / 2.8));
  const finW = fan + 6;
  for (let i = 0; i < fins; i++) {
    box(g, finMat, [0.6, finW, STACK_DEPTH], [-stackBottom - (i * stackH) / (fins - 1), 0, 0]);
  }
  // side rails make the stack read as a block from edge-on angles
  box(g, finMat, [stackH, 1.2, STACK_DEPTH], [-stackBottom - stackH / 2, finW / 2 - 0.6, 0]);
  box(g, finMat, [stackH, 1.2, STACK_DEPTH], [-stackBottom - stackH / 2, -finW / 2 + 0.6, 0]);
  // top cover in the cooler's colour
  box(g, kit.solid(specs.color, 0.35, 0.5), [4, finW + 2, STACK_DEPTH + 2], [-h + 2, 0, 0]);
  if (specs.rgb) {
    const strip = new THREE.Mesh(paintRainbow(new THREE.BoxGeometry(1.5, finW - 10, 6), 'y'), kit.rgb());
    strip.position.set(-h - 0.5, 0, 0);
    g.add(strip);
  }
  const fanX = -stackBottom - stackH / 2;
  for (let i = 0; i < Math.min(2, specs.fanCount); i++) {
    const f = buildFan(kit, { sizeMm: fan, color: '#1b1c1f', rgb: specs.rgb });
    const z = (i === 0 ? 1 : -1) * (STACK_DEPTH / 2 + 13);
    f.position.set(fanX, 0, z);
    g.add(f);
  }
  shadows(g);
  return g;
}

function finColor(color: string): string {
  const c = new THREE.Color(color);
  return (c.r + c.g + c.b) / 3 < 0.2 ? '#2b2d31' : '#c9ccd1';
}

function shadows(g: THREE.Object3D): void {
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
}
