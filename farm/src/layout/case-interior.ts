/**
 * A case model without anchors (docs/part-models.md): the procedural build goes inside the model's
 * measured interior instead of the layout computed from the catalog's case size, which left it
 * floating or poking through the panels of a model whose size differs. The interior is the
 * model's bounding box less a wall thickness (CASE_MODEL_WALL_MM, or `extras.wall_mm` on the
 * model's root node); every procedural part keeps its catalog size and its distance to the
 * nearest inner wall on each axis (the board to the tray, top and rear; the PSU to the floor;
 * a front fan to the front and top), so parts move with their walls, never scaled.
 *
 * The result is a set of virtual anchors, the same names a model's own anchors have
 * (CASE_ANCHORS), so the anchor code moves the parts either way.
 */
import * as THREE from 'three';
import { CASE_ANCHORS, CASE_MODEL_WALL_MM } from '../../../src/model/part-models.js';
import { WALL, type CaseLayout } from './case-layout.js';

type Axis = 'x' | 'y' | 'z';

/** The wall thickness the model asks for (`extras.wall_mm` on its root or scene), else the default. */
export function caseWallMm(template: THREE.Object3D): number {
  for (const o of [template, ...template.children]) {
    const w = (o.userData as { wall_mm?: unknown }).wall_mm;
    if (typeof w === 'number' && Number.isFinite(w) && w >= 0 && w < 100) return w;
  }
  return CASE_MODEL_WALL_MM;
}

/**
 * Virtual anchors that put the layout's parts inside `box` (the placed case model, build mm) less
 * `wallMm`; empty when the model's box is the layout's own (nothing would move). Warns when the
 * interior is smaller than the layout's on an axis (parts may show through the panels).
 */
export function interiorAnchors(
  group: THREE.Group,
  box: THREE.Box3,
  layout: CaseLayout,
  wallMm: number,
  warnings: string[],
): Map<string, THREE.Vector3> {
  const out = new Map<string, THREE.Vector3>();
  const from = {
    x: [-layout.width / 2 + WALL, layout.width / 2 - WALL],
    y: [WALL, layout.height - WALL],
    z: [-layout.depth / 2 + WALL, layout.depth / 2 - WALL],
  } as const;
  const to = {
    x: [box.min.x + wallMm, box.max.x - wallMm],
    y: [box.min.y + wallMm, box.max.y - wallMm],
    z: [box.min.z + wallMm, box.max.z - wallMm],
  } as const;
  const axes: Axis[] = ['x', 'y', 'z'];
  const moved = axes.some((a) => Math.abs(from[a][0] - to[a][0]) > 0.5 || Math.abs(from[a][1] - to[a][1]) > 0.5);
  if (!moved) return out;
  const small = axes.filter((a) => to[a][1] - to[a][0] < from[a][1] - from[a][0] - 1);
  if (small.length) {
    const size = (r: readonly number[]) => Math.round(r[1]! - r[0]!);
    warnings.push(
      `case model without anchors: its interior (${axes.map((a) => size(to[a])).join(' x ')} mm, walls ${wallMm} mm) is smaller than the layout's (${axes.map((a) => size(from[a])).join(' x ')} mm) on ${small.join(', ')}: parts may show through its panels; give it anchors (docs/part-models.md)`,
    );
  }
  // a coordinate keeps its distance to the nearer inner wall
  const map = (v: number, a: Axis) => {
    const [lo, hi] = from[a];
    return v - lo <= hi - v ? to[a][0] + (v - lo) : to[a][1] - (hi - v);
  };
  const place = (p: THREE.Vector3) => new THREE.Vector3(map(p.x, 'x'), map(p.y, 'y'), map(p.z, 'z'));

  // the board's rear-top corner on the tray
  out.set(
    CASE_ANCHORS.motherboardTray,
    new THREE.Vector3(map(layout.trayX, 'x'), map(layout.boardTopY, 'y'), map(layout.boardRearZ, 'z')),
  );
  const psu = group.children.find((c) => c.userData.category === 'PSU');
  if (psu) {
    psu.updateWorldMatrix(true, true);
    out.set(CASE_ANCHORS.psuBay, place(new THREE.Box3().setFromObject(psu).getCenter(new THREE.Vector3())));
  }
  for (const c of group.children) {
    if (c.userData.category !== 'CaseFan' || typeof c.userData.slot !== 'string') continue;
    out.set(`${CASE_ANCHORS.fanPrefix}${(c.userData.slot as string).replace('-', '_')}`, place(c.position));
  }
  return out;
}
