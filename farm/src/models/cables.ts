/**
 * The power cables a build shows: the 24-pin ATX from the board's front edge into the
 * nearest tray grommet, the 8-pin EPS from the board's top-left corner up over the board
 * into the top grommet, and the PCIe power from the graphics card's connector into a
 * grommet in front of the board. Each is a bundle of individually sleeved wires (tubes along
 * splines) in rows like the connector's pins, with a connector housing at the part's end;
 * beyond the grommets they run behind the tray, out of sight. Case coordinates, mm.
 */
import * as THREE from 'three';
import { WALL, type CaseLayout } from '../layout/case-layout.js';
import { box, tube } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';
import { grommetYs, grommetZ } from './case.js';

export interface CableEnds {
  /** the 24-pin connector's mouth on the board, case coordinates */
  atx: THREE.Vector3 | null;
  /** the EPS connector's mouth */
  eps: THREE.Vector3 | null;
  /** each graphics card's power connector, on its top edge */
  pcie: THREE.Vector3[];
}

/** wires drawn a little thicker and fewer than the pins (2x9 for the 24-pin): same look, fewer triangles */
const WIRE = 1.9;
const PITCH = 4.2;

/**
 * `rows` x `cols` wires following `path`: the wires spread along `wide` (the connector's long
 * axis) and across it, each a sleeved tube. Offsets are taken in a frame that follows the
 * path's direction, so the ribbon stays flat through the bends.
 */
function bundle(
  g: THREE.Group,
  mat: THREE.Material,
  path: THREE.Vector3[],
  rows: number,
  cols: number,
  wide: THREE.Vector3,
): void {
  const tangents = path.map((p, i) => {
    const a = path[Math.max(0, i - 1)]!;
    const b = path[Math.min(path.length - 1, i + 1)]!;
    return b.clone().sub(a).normalize();
  });
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const along = (c - (cols - 1) / 2) * PITCH;
      const across = (r - (rows - 1) / 2) * PITCH;
      const pts = path.map((p, i) => {
        const t = tangents[i]!;
        // keep `wide` perpendicular to the direction of travel
        const w = wide.clone().addScaledVector(t, -wide.dot(t)).normalize();
        const n = new THREE.Vector3().crossVectors(t, w).normalize();
        return p.clone().addScaledVector(w, along).addScaledVector(n, across);
      });
      tube(g, mat, pts, WIRE, { radial: 5, pitch: 5 });
    }
  }
}

export function buildCables(kit: MaterialKit, layout: CaseLayout, ends: CableEnds, light: boolean): THREE.Group {
  const g = new THREE.Group();
  g.name = 'cables';
  const sleeve = kit.sleeve(light ? '#e6e7ea' : '#17181b');
  const housing = kit.plastic(light ? '#f0f0f2' : '#0f1012', 0.5);
  const tray = layout.trayX - 1.5;
  const gz = grommetZ(layout);
  const gys = grommetYs(layout);
  const nearestGrommet = (y: number) =>
    gys.reduce((best, v) => (Math.abs(v - y) < Math.abs(best - y) ? v : best), gys[0]!);
  // where cables go through the tray when the case has no grommet column: just past the board
  const entryZ = gz ?? layout.boardRearZ + layout.board.width + 6;
  const y = new THREE.Vector3(0, 1, 0);

  if (ends.atx) {
    const a = ends.atx;
    const gy = nearestGrommet(a.y);
    box(g, housing, [10, 54, 12], [a.x + 5, a.y, a.z]);
    const path = [
      new THREE.Vector3(a.x, a.y, a.z),
      new THREE.Vector3(a.x - 14, a.y, a.z + 4),
      new THREE.Vector3(a.x - 18, (a.y + gy) / 2, Math.min(a.z + 22, (a.z + entryZ) / 2 + 10)),
      new THREE.Vector3((a.x + tray) / 2 - 6, gy, entryZ),
      new THREE.Vector3(tray + 6, gy, entryZ),
    ];
    bundle(g, sleeve, path, 2, 9, y);
  }

  if (ends.eps) {
    const e = ends.eps;
    const top = Math.min(layout.height - WALL - 16, layout.boardTopY + 12);
    box(g, housing, [10, 8, 20], [e.x + 5, e.y, e.z]);
    const path = [
      new THREE.Vector3(e.x, e.y, e.z),
      new THREE.Vector3(e.x - 10, e.y + 6, e.z),
      new THREE.Vector3(e.x - 8, top - 2, e.z + 14),
      new THREE.Vector3((e.x + tray) / 2, top, layout.boardRearZ + 36),
      new THREE.Vector3(tray + 6, top, layout.boardRearZ + 40),
    ];
    bundle(g, sleeve, path, 2, 4, new THREE.Vector3(0, 0, 1));
  }

  for (const p of ends.pcie) {
    const gy = Math.min(nearestGrommet(p.y + 30), p.y + 60);
    box(g, housing, [9, 10, 22], [p.x, p.y + 4, p.z]);
    const path = [
      new THREE.Vector3(p.x, p.y + 8, p.z),
      new THREE.Vector3(p.x - 2, p.y + 26, p.z + 6),
      new THREE.Vector3(p.x + 30, p.y + 40, (p.z + entryZ) / 2 + 10),
      new THREE.Vector3((p.x + tray) / 2 + 20, gy, entryZ - 6),
      new THREE.Vector3(tray + 6, gy, entryZ),
    ];
    bundle(g, sleeve, path, 2, 4, new THREE.Vector3(0, 0, 1));
  }
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}
