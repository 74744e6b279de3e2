/**
 * A graphics card. Local frame: origin where the card's PCB meets the first x16 slot at the
 * bracket end; the card stands out of the board toward -x (its "top edge", the side seen
 * through the window, is at x = -CARD_HEIGHT), its cooler hangs below (-y) and it runs
 * `lengthMm` toward +z (the case front). Fans face down, as in a real build.
 */
import * as THREE from 'three';
import type { GpuSpecs } from '../../../src/model/part.js';
import { box, paintRainbow } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';
import { buildFan } from './fan.js';

export const CARD_HEIGHT = 126;
const SLOT = 20.32;

export function gpuThickness(specs: GpuSpecs): number {
  return specs.slotWidth * SLOT - 3;
}

export function buildGpu(kit: MaterialKit, specs: GpuSpecs): THREE.Group {
  const g = new THREE.Group();
  const L = specs.lengthMm;
  const T = gpuThickness(specs);
  const h = CARD_HEIGHT;
  const shroud = kit.solid(specs.color, 0.4, 0.45);
  const dark = kit.solid('#0f1012', 0.7, 0.2);
  const plate = kit.solid(backplateColor(specs.color), 0.35, 0.7);

  // PCB, backplate above it, cooler body below
  box(g, kit.solid('#13301f', 0.6, 0.1), [h - 6, 1.6, L - 8], [-(h - 6) / 2 - 6, 0, L / 2]);
  box(g, plate, [h, 2.5, L], [-h / 2, 2.2, L / 2]);
  const body = T - 4;
  box(g, dark, [h - 10, body - 6, L - 12], [-h / 2, -body / 2, L / 2]); // fin block
  box(g, shroud, [h + 2, body * 0.45, L], [-h / 2, -body + (body * 0.45) / 2, L / 2]); // fan shroud
  box(g, shroud, [4, body, L], [-h - 1, -body / 2, L / 2]); // window-side edge
  box(g, shroud, [h + 2, body, 4], [-h / 2, -body / 2, L - 2]); // front end cap
  // fin slots visible through the window-side edge
  const fins = Math.floor((L - 70) / 9);
  for (let i = 0; i < fins; i++) box(g, dark, [0.8, body * 0.42, 4], [-h - 3.2, -body * 0.3, 40 + i * 9]);
  // vendor accent line and logo plate on the window-side edge
  box(g, kit.solid(brandAccent(specs.brand), 0.35, 0.5), [0.8, 2.5, L * 0.55], [-h - 3.3, -body * 0.78, L * 0.45]);
  box(g, kit.solid('#d9dce0', 0.3, 0.7), [0.8, body * 0.3, 40], [-h - 3.3, -body * 0.4, L * 0.22]);
  if (specs.rgb) {
    const strip = new THREE.Mesh(paintRainbow(new THREE.BoxGeometry(1.2, 3, L * 0.5), 'z'), kit.rgb());
    strip.position.set(-h - 3.4, -body * 0.12, L * 0.6);
    g.add(strip);
  }
  // power connector on the top edge
  box(g, kit.solid('#1b1c1f', 0.6, 0.1), [8, 7, 22], [-h - 2, 3.5, L * 0.62]);

  // fans on the underside
  const n = specs.fanCount;
  const fanSize = Math.min(h - 20, (L - 20) / n - 4);
  for (let i = 0; i < n; i++) {
    const f = buildFan(kit, { sizeMm: fanSize, color: '#17181b', rgb: false, thickness: 10, blades: 11, frameless: true });
    f.rotation.x = Math.PI / 2;
    f.position.set(-h / 2, -body - 0.5, 10 + (L - 20) * ((i + 0.5) / n));
    g.add(f);
  }
  // I/O bracket at the rear wall with port cut-outs
  const bracketH = Math.ceil(specs.slotWidth) * SLOT;
  box(g, kit.metal('#a9adb3', 0.45), [20, bracketH, 1.2], [-12, 4 - bracketH / 2, -6]);
  for (let i = 0; i < 3; i++) box(g, dark, [10, 7, 1.4], [-12, -6 - i * 10, -6.2]);
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}

function backplateColor(color: string): string {
  const c = new THREE.Color(color);
  return (c.r + c.g + c.b) / 3 > 0.5 ? '#cfd2d6' : '#24262a';
}

function brandAccent(brand: GpuSpecs['brand']): string {
  return brand === 'NVIDIA' ? '#76b900' : brand === 'AMD' ? '#d0202a' : brand === 'Intel' ? '#1a6fd1' : '#8b9097';
}
