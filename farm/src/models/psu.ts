/**
 * A power supply, centred at the origin: ATX 150x86, SFX 125x64 (width x height), length
 * from the data along z. Fan grill on the underside, modular sockets on the inner end.
 */
import * as THREE from 'three';
import type { PsuSpecs } from '../../../src/model/part.js';
import { box, cylinder } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';

export function psuSize(specs: PsuSpecs): [number, number, number] {
  const sfx = specs.formFactor.startsWith('SFX');
  return [sfx ? 125 : 150, sfx ? 64 : 86, specs.lengthMm];
}

export function buildPsu(kit: MaterialKit, specs: PsuSpecs): THREE.Group {
  const g = new THREE.Group();
  const [w, h, l] = psuSize(specs);
  box(g, kit.solid(specs.color, 0.5, 0.4), [w, h, l], [0, 0, 0]);
  // label on the window side, wattage band: wider for bigger units
  box(g, kit.solid('#c9ccd1', 0.5, 0.2), [0.5, h * 0.55, l * 0.55], [-w / 2 - 0.3, 0, 0]);
  box(g, kit.solid('#d9a520', 0.4, 0.4), [0.6, 4, Math.min(l * 0.5, (specs.wattage / 1600) * l * 0.5)], [-w / 2 - 0.4, -h * 0.18, 0]);
  // fan grill underneath
  const fan = Math.min(w, l) * 0.8;
  cylinder(g, kit.solid('#0e0f11', 0.7, 0.2), fan / 2, 1, [0, -h / 2 - 0.5, 0], 'y', 24);
  for (let i = 1; i < 4; i++) cylinder(g, kit.metal('#6f747b', 0.5), (fan / 2) * (i / 4), 1.4, [0, -h / 2 - 0.6, 0], 'y', 20, true);
  // modular sockets on the end facing the case front
  for (let i = 0; i < 6; i++) box(g, kit.solid('#111214', 0.6, 0.1), [16, 9, 1], [-w / 2 + 15 + (i % 3) * 22, h / 4 - Math.floor(i / 3) * 16, l / 2 + 0.4]);
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}
