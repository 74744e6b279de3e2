/**
 * One RAM stick. Local frame: origin where the stick enters its DIMM slot, the stick stands
 * out of the board toward -x by `heightMm`, runs 133 mm along y and is 7 mm thick along z.
 * Two heat-spreader plates with a profiled top edge (chamfered ends, a raised centre wing and
 * a brushed accent inlay), and on RGB kits a light bar (diffuser) along the top.
 */
import * as THREE from 'three';
import type { RamSpecs } from '../../../src/model/part.js';
import { box, paintRainbow, planarUv } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';

export const DIMM_LENGTH = 133;
/** how deep the stick sits in the slot: its visible part starts at the slot's top */
const SLOT_DEPTH = 8;

const profiles = new Map<string, THREE.BufferGeometry>();

/**
 * A spreader plate: its outline in (height, length), extruded to its thickness along z. The
 * top edge is chamfered at both ends and rises in the middle third (a "wing"), so sticks of
 * different heights and kits read differently in silhouette.
 */
function spreaderGeometry(height: number, length: number, thickness: number): THREE.BufferGeometry {
  const key = `${height.toFixed(1)}:${length}:${thickness}`;
  let g = profiles.get(key);
  if (!g) {
    const l = length / 2;
    const top = height;
    const wing = Math.min(4, height * 0.12);
    const s = new THREE.Shape();
    s.moveTo(0, -l);
    s.lineTo(top - 6, -l);
    s.lineTo(top - wing, -l + 10);
    s.lineTo(top - wing, -l * 0.35);
    s.lineTo(top, -l * 0.3);
    s.lineTo(top, l * 0.3);
    s.lineTo(top - wing, l * 0.35);
    s.lineTo(top - wing, l - 10);
    s.lineTo(top - 6, l);
    s.lineTo(0, l);
    s.lineTo(0, -l);
    g = planarUv(
      new THREE.ExtrudeGeometry(s, {
        depth: thickness,
        bevelEnabled: true,
        bevelThickness: 0.3,
        bevelSize: 0.3,
        bevelSegments: 1,
      }),
    );
    // shape x is the height: turn it to grow toward -x, off the board (a turn keeps the winding)
    g.rotateY(Math.PI);
    g.translate(0, 0, thickness / 2);
    profiles.set(key, g);
  }
  return g;
}

export function buildRamStick(kit: MaterialKit, specs: RamSpecs): THREE.Group {
  const g = new THREE.Group();
  const h = specs.heightMm;
  const c = new THREE.Color(specs.color);
  const light = (c.r + c.g + c.b) / 3 > 0.5;
  const spreader = kit.paint(specs.color, 0.38);
  const L = DIMM_LENGTH;
  box(g, kit.solid('#1f5130', 0.6, 0.1), [h - 2, L - 2, 1.2], [-h / 2 + 1, 0, 0]);
  const plateH = h - SLOT_DEPTH - (specs.rgb ? 7 : 0);
  const geometry = spreaderGeometry(plateH, L, 2.2);
  for (const sz of [-1, 1]) {
    const plate = new THREE.Mesh(geometry, spreader);
    plate.position.set(-SLOT_DEPTH, 0, sz * 2.3);
    g.add(plate);
    // brushed accent inlay on each face
    box(
      g,
      kit.brushed(light ? '#a9aeb5' : '#6b7078', 0.3),
      [plateH * 0.18, L * 0.5, 0.4],
      [-SLOT_DEPTH - plateH * 0.55, -L * 0.08, sz * 3.6],
    );
  }
  if (specs.rgb) {
    // the light bar: a diffuser over the spreaders' top edge, capped at both ends
    const bar = new THREE.Mesh(paintRainbow(new THREE.BoxGeometry(6.5, L - 6, 5.6), 'y'), kit.rgb());
    bar.position.x = -h + 3.6;
    bar.name = 'rgb-bar';
    g.add(bar);
    for (const sy of [-1, 1]) box(g, spreader, [7.2, 3, 7], [-h + 3.6, sy * (L / 2 - 1.5), 0]);
  }
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}
