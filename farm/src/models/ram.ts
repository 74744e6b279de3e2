/**
 * One RAM stick. Local frame: origin where the stick enters its DIMM slot, the stick stands
 * out of the board toward -x by `heightMm`, runs 133 mm along y and is 7 mm thick along z.
 */
import * as THREE from 'three';
import type { RamSpecs } from '../../../src/model/part.js';
import { box, paintRainbow } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';

export const DIMM_LENGTH = 133;
/** how deep the stick sits in the slot: its visible part starts at the slot's top */
const SLOT_DEPTH = 8;

export function buildRamStick(kit: MaterialKit, specs: RamSpecs): THREE.Group {
  const g = new THREE.Group();
  const h = specs.heightMm;
  const spreader = kit.solid(specs.color, 0.4, 0.55);
  const L = DIMM_LENGTH;
  box(g, kit.solid('#1f5130', 0.6, 0.1), [h - 2, L - 2, 1.2], [-h / 2 + 1, 0, 0]);
  const plateH = h - SLOT_DEPTH - (specs.rgb ? 6 : 1);
  for (const s of [-1, 1]) box(g, spreader, [plateH, L, 2.4], [-SLOT_DEPTH - plateH / 2, 0, s * 2.2]);
  // a stepped edge on the spreader so sticks of different heights read differently
  box(g, kit.solid(edgeColor(specs.color), 0.35, 0.7), [3, L * 0.6, 7.4], [-SLOT_DEPTH - plateH * 0.55, -L * 0.12, 0]);
  if (specs.rgb) {
    const bar = new THREE.Mesh(paintRainbow(new THREE.BoxGeometry(6, L - 4, 6.2), 'y'), kit.rgb());
    bar.position.x = -h + 3;
    g.add(bar);
  } else {
    box(g, spreader, [2, L, 7], [-h + 1, 0, 0]);
  }
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}

function edgeColor(color: string): string {
  const c = new THREE.Color(color);
  return (c.r + c.g + c.b) / 3 > 0.5 ? '#8d939b' : '#5b6068';
}
