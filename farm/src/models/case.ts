/**
 * The case shell (case coordinates, mm; see layout/case-layout.ts): a rounded base and roof
 * cap, four rounded corner pillars, the front (hex mesh in a frame, glass on dual-chamber
 * cases, closed on solid ones), the rear with I/O opening, exhaust grill and slot covers, the
 * tray side, the window side (tempered glass with a screen-printed border / hex mesh /
 * solid), the motherboard tray with rubber grommets, the PSU shroud, front I/O on the roof
 * and feet. Glass and mesh are transparent materials, drawn after the inside.
 *
 * Dual-chamber cases (layout.dualChamber): glass front and side meeting at a thin seam, no
 * shroud (bottom fans sit on a perforated floor), the PSU in a chamber behind the tray.
 */
import * as THREE from 'three';
import type { CaseSpecs } from '../../../src/model/part.js';
import { FRONT_ZONE, WALL, type CaseLayout } from '../layout/case-layout.js';
import { box, cylinder, paintRainbow, planarUv, roundedBox } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';

const FOOT = 10;
/** the roof cap and the base are thicker than the walls so their edges can be rounded */
const CAP = 8;
const PILLAR = 12;

export function buildCase(kit: MaterialKit, layout: CaseLayout, specs: CaseSpecs): THREE.Group {
  const g = new THREE.Group();
  const { width: W, height: H, depth: D } = layout;
  const light = luminance(specs.color) > 0.5;
  const shell = kit.paint(specs.color, light ? 0.5 : 0.42);
  // the tray a shade off the shell, so a board of the same colour still stands out against it
  const inner = kit.paint(trayColor(specs.color), 0.6);
  const accent = kit.paint(specs.accentColor, 0.35);
  const dark = kit.plastic('#0c0d0f', 0.75);
  const rubber = kit.plastic(light ? '#c9ccd1' : '#1a1b1e', 0.85);
  const glass = kit.glass(light ? '#d9e2e8' : '#10171c', light ? 0.07 : 0.13);
  const dual = layout.dualChamber;

  // base and roof caps with rounded edges, and the four corner pillars
  roundedBox(g, shell, [W, CAP, D], [0, CAP / 2, 0], CAP / 2 - 0.1, 2);
  roundedBox(g, shell, [W, CAP, D], [0, H - CAP / 2, 0], CAP / 2 - 0.1, 2);
  for (const sx of [-1, 1]) {
    for (const sz of [-1, 1]) {
      // a panoramic case has no pillar where its front and side glass meet
      if (dual && sx < 0 && sz > 0) continue;
      roundedBox(
        g,
        shell,
        [PILLAR, H - 2, PILLAR],
        [sx * (W / 2 - PILLAR / 2), H / 2, sz * (D / 2 - PILLAR / 2)],
        5,
        2,
      );
    }
  }
  // roof vent: a hex-patterned insert over the top fan/radiator zone
  if (specs.sidePanel !== 'solid') {
    const vent = new THREE.Mesh(meshPlane(W * 0.6, D * 0.62), kit.meshInset(darken(specs.color, light ? 0.95 : 2.2)));
    vent.rotation.x = -Math.PI / 2;
    vent.position.set(-W * 0.08, H + 0.25, -D * 0.08);
    g.add(vent);
  }

  buildFront(g, kit, layout, specs, { shell, accent, dark, glass });
  buildRear(g, kit, layout, shell, dark);
  buildWindowSide(g, kit, layout, specs, glass);
  // the tray-side outer panel between the pillars
  box(g, shell, [WALL, H - 2 * CAP, D - 2 * PILLAR + 2], [W / 2 - WALL / 2, H / 2, 0]);

  buildTray(g, layout, inner, rubber, dark);
  if (layout.shroud) buildShroud(g, kit, layout, specs, shell, accent);
  if (dual) {
    // the main chamber's perforated floor (bottom intake) and the chamber divider's front edge
    const floor = new THREE.Mesh(
      meshPlane(layout.trayX - layout.windowX - 8, D - 2 * PILLAR - 10),
      kit.meshInset(darken(specs.color, light ? 0.95 : 2.2)),
    );
    floor.rotation.x = -Math.PI / 2;
    floor.position.set((layout.windowX + layout.trayX) / 2, CAP + 0.3, 0);
    g.add(floor);
    roundedBox(g, shell, [8, H - 2 * CAP, 10], [layout.trayX + 4, H / 2, D / 2 - 5], 3, 1);
  }

  // feet: painted blocks with rubber soles
  for (const sx of [-1, 1]) {
    for (const sz of [-1, 1]) {
      const x = sx * (W / 2 - 26);
      const z = sz * (D / 2 - 42);
      roundedBox(g, shell, [34, FOOT - 2, 52], [x, -(FOOT - 2) / 2, z], 3, 1);
      box(g, rubber, [30, 2, 48], [x, -FOOT + 1, z]);
    }
  }

  buildFrontIo(g, kit, layout, specs, accent, dark);
  if (specs.rgb) {
    // a light bar down the front edge of the window side
    const strip = new THREE.Mesh(paintRainbow(new THREE.BoxGeometry(3, H - 2 * CAP - 20, 3), 'y'), kit.rgb());
    strip.position.set(-W / 2 + (dual ? 2 : PILLAR + 1), H / 2, D / 2 - (dual ? 8 : PILLAR / 2));
    strip.name = 'rgb-strip';
    g.add(strip);
  }

  g.traverse((o) => {
    const m = o as THREE.Mesh;
    if (m.isMesh && !(m.material as THREE.Material).transparent) {
      o.castShadow = true;
      o.receiveShadow = true;
    }
  });
  return g;
}

interface Paints {
  shell: THREE.Material;
  accent: THREE.Material;
  dark: THREE.Material;
  glass: THREE.Material;
}

function buildFront(g: THREE.Group, kit: MaterialKit, layout: CaseLayout, specs: CaseSpecs, p: Paints): void {
  const { width: W, height: H, depth: D } = layout;
  const z = D / 2 - 2;
  const innerH = H - 2 * CAP;
  if (layout.dualChamber) {
    // glass over the main chamber (from the seam to the divider), a closed strip before the rear chamber
    const x0 = -W / 2 + 1;
    const x1 = layout.trayX + 8;
    const pane = new THREE.Mesh(new THREE.BoxGeometry(x1 - x0, innerH, 4), p.glass);
    pane.position.set((x0 + x1) / 2, H / 2, z);
    pane.name = 'front-glass';
    g.add(pane);
    printBorder(g, kit, [x0, x1], H, z - 2.5, 'z');
    box(g, p.shell, [W / 2 - PILLAR - x1, innerH, WALL], [(x1 + W / 2 - PILLAR) / 2, H / 2, D / 2 - WALL / 2]);
    return;
  }
  if (specs.sidePanel === 'solid') {
    box(g, p.shell, [W - 2 * PILLAR + 2, innerH, WALL], [0, H / 2, D / 2 - WALL / 2]);
    // side intake slits and a front accent bar
    for (const sx of [-1, 1]) box(g, p.dark, [4, innerH * 0.86, 1], [sx * (W / 2 - PILLAR - 6), H / 2, D / 2 + 0.1]);
    box(g, p.accent, [W * 0.3, 4, 1.2], [0, H - CAP - 24, D / 2 + 0.2]);
    return;
  }
  // airflow front: hex mesh between the pillars with a painted chin, so the intake fans and
  // their RGB show through it
  const chin = 34;
  const mesh = new THREE.Mesh(meshPlane(W - 2 * PILLAR, innerH - chin), kit.meshPanel(meshColor(specs.color)));
  mesh.position.set(0, CAP + chin + (innerH - chin) / 2, z);
  mesh.name = 'front-mesh';
  g.add(mesh);
  box(g, p.shell, [W - 2 * PILLAR + 2, chin, WALL], [0, CAP + chin / 2, D / 2 - WALL / 2]);
  // a thin accent line across the chin
  box(g, p.accent, [W - 2 * PILLAR - 20, 2, 0.8], [0, CAP + chin - 6, D / 2 + 0.2]);
}

function buildRear(
  g: THREE.Group,
  kit: MaterialKit,
  layout: CaseLayout,
  shell: THREE.Material,
  dark: THREE.Material,
): void {
  const { width: W, height: H, depth: D } = layout;
  box(g, shell, [W - 2 * PILLAR + 2, H - 2 * CAP, WALL], [0, H / 2, -D / 2 + WALL / 2]);
  const out = -D / 2 - 0.3;
  // I/O shield opening, exhaust grill, expansion slot covers with vents, PSU opening
  box(g, kit.brushed('#9ea3a9'), [22, 160, 1], [layout.boardFaceX - 12, layout.boardTopY - 80, out]);
  const fanY = Math.min(layout.boardTopY - layout.board.socket.v, H - 70);
  const grill = new THREE.Mesh(meshPlane(108, 108), kit.meshInset('#4a4d52'));
  grill.rotation.y = Math.PI;
  grill.position.set((layout.windowX + layout.boardFaceX) / 2 - 10, fanY, out - 0.2);
  g.add(grill);
  const slotTop = layout.boardTopY - layout.board.pcieV[0]! + 10;
  const cover = kit.brushed('#7d8288', 0.45);
  for (let i = 0; i < 7; i++) {
    const y = slotTop - i * 20.32;
    if (y < layout.psu.max[1] + 15 && !layout.dualChamber) break;
    if (y < CAP + 12) break;
    box(g, cover, [100, 15, 1], [layout.boardFaceX - 70, y, out]);
    box(g, dark, [60, 3, 1.2], [layout.boardFaceX - 70, y, out - 0.2]);
  }
  const p = layout.psu;
  box(
    g,
    dark,
    [p.max[0] - p.min[0] - 6, p.max[1] - p.min[1] - 6, 1],
    [(p.min[0] + p.max[0]) / 2, (p.min[1] + p.max[1]) / 2, layout.dualChamber ? D / 2 + 0.3 : out],
  );
}

function buildWindowSide(
  g: THREE.Group,
  kit: MaterialKit,
  layout: CaseLayout,
  specs: CaseSpecs,
  glass: THREE.Material,
): void {
  const { width: W, height: H, depth: D } = layout;
  const x = -W / 2 + WALL / 2;
  const innerH = H - 2 * CAP;
  const z0 = -D / 2 + PILLAR - 1;
  const z1 = layout.dualChamber ? D / 2 - 1 : D / 2 - PILLAR + 1;
  if (specs.sidePanel === 'solid') {
    box(g, kit.paint(specs.color, 0.42), [WALL, innerH, z1 - z0], [x, H / 2, (z0 + z1) / 2]);
    box(g, kit.paint(specs.accentColor, 0.35), [1, 3, D * 0.6], [-W / 2 - 0.5, CAP + innerH * 0.1, 0]);
    return;
  }
  if (specs.sidePanel === 'mesh') {
    const m = new THREE.Mesh(meshPlane(z1 - z0, innerH), kit.meshPanel(meshColor(specs.color)));
    m.rotation.y = -Math.PI / 2;
    m.position.set(-W / 2 + 1.5, H / 2, (z0 + z1) / 2);
    m.name = 'side-mesh';
    g.add(m);
    return;
  }
  // tempered glass: tinted pane with reflections and a black screen-printed border
  const pane = new THREE.Mesh(new THREE.BoxGeometry(4, innerH, z1 - z0), glass);
  pane.position.set(-W / 2 + 2, H / 2, (z0 + z1) / 2);
  pane.name = 'side-glass';
  g.add(pane);
  printBorder(g, kit, [z0, z1], H, -W / 2 + 4.5, 'x');
}

/** The screen-printed black border just inside a glass pane (the pane spans `span` along its axis). */
function printBorder(
  g: THREE.Group,
  kit: MaterialKit,
  span: [number, number],
  H: number,
  at: number,
  normal: 'x' | 'z',
): void {
  const m = kit.solid('#07080a', 0.25, 0.1);
  const b = 9;
  const len = span[1] - span[0];
  const mid = (span[0] + span[1]) / 2;
  const put = (size: [number, number, number], pos: [number, number, number]) =>
    normal === 'x'
      ? box(g, m, [0.8, size[1], size[0]], [at, pos[1], pos[0]])
      : box(g, m, [size[0], size[1], 0.8], [pos[0], pos[1], at]);
  put([len, b, 0], [mid, CAP + b / 2, 0]);
  put([len, b, 0], [mid, H - CAP - b / 2, 0]);
}

function buildTray(
  g: THREE.Group,
  layout: CaseLayout,
  inner: THREE.Material,
  rubber: THREE.Material,
  dark: THREE.Material,
): void {
  const { height: H, depth: D } = layout;
  box(g, inner, [2, H - 2 * CAP, D - 2 * WALL - 4], [layout.trayX + 1, H / 2, 0]);
  // rubber grommets in front of the board's edge and above it (cables go through them)
  const z = grommetZ(layout);
  if (z !== null) {
    for (const y of grommetYs(layout)) {
      roundedBox(g, rubber, [2.5, 64, 18], [layout.trayX - 0.6, y, z], 1.2, 1);
      box(g, dark, [2.7, 52, 1.2], [layout.trayX - 0.7, y, z]);
    }
  }
  roundedBox(
    g,
    rubber,
    [2.5, 14, 60],
    [layout.trayX - 0.6, Math.min(H - CAP - 10, layout.boardTopY + 12), layout.boardRearZ + 40],
    1.2,
    1,
  );
}

/** z of the grommet column in front of the board (null when the case has no room there). */
export function grommetZ(layout: CaseLayout): number | null {
  const z = layout.boardRearZ + layout.board.width + 16;
  return z < layout.depth / 2 - WALL - FRONT_ZONE - 4 ? z : null;
}

/** Heights of the grommets in front of the board, top to bottom. */
export function grommetYs(layout: CaseLayout): number[] {
  const lo = layout.floorY;
  const hi = layout.height - CAP;
  return [0.78, 0.5, 0.22].map((k) => lo + (hi - lo) * k);
}

function buildShroud(
  g: THREE.Group,
  kit: MaterialKit,
  layout: CaseLayout,
  specs: CaseSpecs,
  shell: THREE.Material,
  accent: THREE.Material,
): void {
  const { depth: D } = layout;
  const x0 = layout.windowX;
  const x1 = layout.trayX;
  const zFront = D / 2 - WALL - FRONT_ZONE + 6;
  const zBack = -D / 2 + WALL;
  const zLen = zFront - zBack;
  const top = layout.floorY;
  box(g, shell, [x1 - x0, 2, zLen], [(x0 + x1) / 2, top - 1, zFront - zLen / 2]);
  roundedBox(g, shell, [16, 5, zLen], [x0 + 8, top - 2.5, zFront - zLen / 2], 2.4, 1);
  // the window face, set back a little, with a window onto the PSU's label (as many cases
  // have): the plate is built around the opening
  const fx = x0 + 14;
  const p = layout.psu;
  const oz0 = p.min[2] + 12;
  const oz1 = Math.min(p.max[2] - 12, zFront - 30);
  const oy0 = Math.max(CAP + 8, p.min[1] + 10);
  const oy1 = Math.min(top - 16, p.max[1] - 8);
  const plate = (za: number, zb: number, ya: number, yb: number) => {
    if (zb - za > 0.5 && yb - ya > 0.5) box(g, shell, [3, yb - ya, zb - za], [fx, (ya + yb) / 2, (za + zb) / 2]);
  };
  if (oz1 - oz0 >= 40 && oy1 - oy0 >= 20) {
    plate(zBack, oz0, CAP, top - 5);
    plate(oz1, zFront, CAP, top - 5);
    plate(oz0, oz1, CAP, oy0);
    plate(oz0, oz1, oy1, top - 5);
    // a dark bezel round the opening
    const bezel = kit.plastic('#0c0d0f', 0.6);
    box(g, bezel, [3.4, 2, oz1 - oz0 + 4], [fx, oy0 - 1, (oz0 + oz1) / 2]);
    box(g, bezel, [3.4, 2, oz1 - oz0 + 4], [fx, oy1 + 1, (oz0 + oz1) / 2]);
    box(g, bezel, [3.4, oy1 - oy0, 2], [fx, (oy0 + oy1) / 2, oz0 - 1]);
    box(g, bezel, [3.4, oy1 - oy0, 2], [fx, (oy0 + oy1) / 2, oz1 + 1]);
  } else {
    plate(zBack, zFront, CAP, top - 5);
  }
  // vents on the window face in front of the opening, a hex patch on top near the front, an accent line
  const vent = kit.solid(trayColor(specs.color), 0.8, 0.1);
  const vz = (Math.max(oz1, zBack) + zFront) / 2;
  const vlen = Math.min(zLen * 0.3, zFront - Math.max(oz1, zBack) - 20);
  if (vlen > 20) for (let i = 0; i < 4; i++) box(g, vent, [0.6, 4, vlen], [fx - 1.7, top - 30 - i * 10, vz]);
  const patch = new THREE.Mesh(
    meshPlane(zLen * 0.28, (x1 - x0) * 0.55),
    kit.meshInset(darken(specs.color, luminance(specs.color) > 0.5 ? 0.95 : 2.2)),
  );
  patch.rotation.set(-Math.PI / 2, 0, Math.PI / 2);
  patch.position.set((x0 + x1) / 2 + 8, top + 0.2, zFront - zLen * 0.2);
  g.add(patch);
  box(g, accent, [0.8, 3, zLen * 0.7], [fx - 1.6, top - 12, zFront - zLen / 2]);
}

/** Power button, USB-A, USB-C and audio on the roof's front edge, and a power LED. */
function buildFrontIo(
  g: THREE.Group,
  kit: MaterialKit,
  layout: CaseLayout,
  specs: CaseSpecs,
  accent: THREE.Material,
  dark: THREE.Material,
): void {
  const { width: W, height: H, depth: D } = layout;
  const z = D / 2 - 22;
  const y = H + 0.3;
  const ring = kit.brushed('#c9ccd1', 0.3);
  cylinder(g, ring, 7.5, 1.4, [-W * 0.26, y + 0.4, z], 'y', 24);
  cylinder(g, accent, 6, 2, [-W * 0.26, y + 0.7, z], 'y', 24);
  const port = kit.solid('#050506', 0.6, 0.1);
  const tongue = kit.solid(luminance(specs.color) > 0.5 ? '#dcdfe3' : '#2b6fd6', 0.5, 0.1);
  for (const x of [-0.08, 0.04]) {
    box(g, port, [13, 1, 6], [W * x, y, z]);
    box(g, tongue, [10, 1.1, 1.6], [W * x, y + 0.05, z + 1.2]);
  }
  roundedBox(g, port, [9, 1.2, 3.4], [W * 0.15, y, z], 1.6, 1);
  cylinder(g, port, 1.9, 1.2, [W * 0.24, y, z], 'y', 12);
  // reset button
  cylinder(g, dark, 2.2, 1.2, [-W * 0.36, y, z], 'y', 12);
}

/** A plane for a hex-mesh panel: its UVs tile the perforation every 6 mm. */
function meshPlane(width: number, height: number): THREE.BufferGeometry {
  return planarUv(new THREE.PlaneGeometry(width, height), 6);
}

function luminance(color: string): number {
  const c = new THREE.Color(color);
  return (c.r + c.g + c.b) / 3;
}

function darken(color: string, k: number): string {
  const c = new THREE.Color(color).multiplyScalar(k);
  c.r = Math.min(1, c.r);
  c.g = Math.min(1, c.g);
  c.b = Math.min(1, c.b);
  return `#${c.getHexString()}`;
}

/** Mesh panels a touch lighter than a black shell (so the hex pattern reads) or the shell's own colour. */
function meshColor(color: string): string {
  return luminance(color) < 0.12 ? darken(color, 1.9) : color;
}

function trayColor(color: string): string {
  const c = new THREE.Color(color);
  const l = (c.r + c.g + c.b) / 3;
  return l < 0.1 ? `#${c.offsetHSL(0, 0, 0.06).getHexString()}` : darken(color, 0.85);
}
