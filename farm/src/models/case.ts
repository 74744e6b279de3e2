/**
 * The case shell (case coordinates, mm; see layout/case-layout.ts): floor, roof, front, rear
 * and tray-side panels, the window-side panel (glass / perforated mesh / solid), the
 * motherboard tray, the PSU shroud and feet. The window-side panel is its own mesh
 * (`userData.keep`) so it stays transparent and is drawn after the inside.
 */
import * as THREE from 'three';
import type { CaseSpecs } from '../../../src/model/part.js';
import { FRONT_ZONE, WALL, type CaseLayout } from '../layout/case-layout.js';
import { box, paintRainbow } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';

const FOOT = 10;

export function buildCase(kit: MaterialKit, layout: CaseLayout, specs: CaseSpecs): THREE.Group {
  const g = new THREE.Group();
  const { width: W, height: H, depth: D } = layout;
  const shell = kit.solid(specs.color, 0.45, 0.35);
  // the tray a shade lighter than the shell, so a dark board still stands out against it
  const inner = kit.solid(trayColor(specs.color), 0.7, 0.2);
  const accent = kit.solid(specs.accentColor, 0.35, 0.6);
  const dark = kit.solid('#0c0d0f', 0.8, 0.1);

  // floor, roof, tray-side panel
  box(g, shell, [W, WALL, D], [0, WALL / 2, 0]);
  box(g, shell, [W, WALL, D], [0, H - WALL / 2, 0]);
  box(g, shell, [WALL, H, D], [W / 2 - WALL / 2, H / 2, 0]);
  // roof vent inset, seen from the raised camera
  box(g, dark, [W * 0.62, 0.6, D * 0.72], [-W * 0.06, H + 0.3, -D * 0.06]);

  buildFront(g, kit, layout, specs, shell, accent, dark);
  buildRear(g, layout, shell, dark, kit);
  buildWindowSide(g, kit, layout, specs);

  // motherboard tray with cable grommets in front of the board
  box(g, inner, [2, H - 2 * WALL, D - 2 * WALL], [layout.trayX + 1, H / 2, 0]);
  const grommetZ = layout.boardRearZ + layout.board.width + 14;
  if (grommetZ < D / 2 - WALL - FRONT_ZONE) {
    for (const y of [0.25, 0.5, 0.75]) {
      box(g, dark, [1, 70, 16], [layout.trayX - 0.5, layout.floorY + (H - WALL - layout.floorY) * y, grommetZ]);
    }
  }

  if (layout.shroud) {
    const x0 = layout.windowX;
    const x1 = layout.trayX;
    const zFront = D / 2 - WALL - FRONT_ZONE + 6;
    const zLen = zFront + D / 2 - WALL;
    const top = layout.floorY;
    box(g, shell, [x1 - x0, 2, zLen], [(x0 + x1) / 2, top - 1, zFront - zLen / 2]);
    box(g, shell, [2, top - WALL, zLen], [x0 + 14, (top + WALL) / 2, zFront - zLen / 2]);
    // vent slots and an accent line on the shroud's window face
    const slit = kit.solid(trayColor(specs.color), 0.8, 0.1);
    for (let i = 0; i < 4; i++) box(g, slit, [0.6, 4, zLen * 0.35], [x0 + 12.7, top - 30 - i * 10, -D / 2 + 30 + zLen * 0.2]);
    box(g, accent, [0.8, 3, zLen * 0.7], [x0 + 12.6, top - 12, zFront - zLen / 2]);
  }

  // feet
  for (const sx of [-1, 1]) for (const sz of [-1, 1]) box(g, dark, [30, FOOT, 45], [sx * (W / 2 - 25), -FOOT / 2, sz * (D / 2 - 40)]);

  g.traverse((o) => {
    if ((o as THREE.Mesh).isMesh && !o.userData.keep) {
      o.castShadow = true;
      o.receiveShadow = true;
    }
  });
  return g;
}

function buildFront(
  g: THREE.Group,
  kit: MaterialKit,
  layout: CaseLayout,
  specs: CaseSpecs,
  shell: THREE.Material,
  accent: THREE.Material,
  dark: THREE.Material,
): void {
  const { width: W, height: H, depth: D } = layout;
  const z = D / 2 - WALL / 2;
  if (specs.sidePanel !== 'solid') {
    // airflow front (glass- and mesh-sided cases): perforated face inside a frame, so the
    // intake fans and their RGB show through it; solid-sided cases get a closed front
    const m = new THREE.Mesh(scaledUvBox(W - 16, H - 16, WALL, 7), kit.perforated(specs.color));
    m.position.set(0, H / 2, z + 1);
    g.add(m);
    box(g, shell, [W, 8, WALL + 2], [0, 4, z + 1]);
    box(g, shell, [W, 8, WALL + 2], [0, H - 4, z + 1]);
    box(g, shell, [8, H, WALL + 2], [-W / 2 + 4, H / 2, z + 1]);
    box(g, shell, [8, H, WALL + 2], [W / 2 - 4, H / 2, z + 1]);
  } else {
    box(g, shell, [W, H, WALL], [0, H / 2, z]);
    // side intake slits and a front accent bar
    for (const sx of [-1, 1]) box(g, dark, [6, H * 0.86, 1], [sx * (W / 2 - 12), H / 2, D / 2 + 0.4]);
    box(g, accent, [W * 0.3, 4, 1.2], [0, H - 28, D / 2 + 0.6]);
  }
  // power button and front I/O on the roof edge
  const btn = new THREE.Mesh(new THREE.CylinderGeometry(6, 6, 2, 16), accent);
  btn.position.set(-W * 0.2, H + 1, D / 2 - 30);
  g.add(btn);
  box(g, dark, [10, 1, 5], [W * 0.05, H + 0.5, D / 2 - 30]);
  box(g, dark, [10, 1, 5], [W * 0.15, H + 0.5, D / 2 - 30]);
  if (specs.rgb) {
    const strip = new THREE.Mesh(paintRainbow(new THREE.BoxGeometry(3, H * 0.8, 2), 'y'), kit.rgb());
    strip.position.set(-W / 2 + 14, H / 2, D / 2 + 0.8);
    g.add(strip);
  }
}

function buildRear(g: THREE.Group, layout: CaseLayout, shell: THREE.Material, dark: THREE.Material, kit: MaterialKit): void {
  const { width: W, height: H, depth: D } = layout;
  const z = -D / 2 + WALL / 2;
  box(g, shell, [W, H, WALL], [0, H / 2, z]);
  const out = -D / 2 - 0.4;
  // I/O shield opening, exhaust grill, expansion slot covers, PSU opening
  box(g, kit.metal('#9ea3a9', 0.45), [22, 160, 1], [layout.boardFaceX - 12, layout.boardTopY - 80, out]);
  const fanY = layout.boardTopY - layout.board.socket.v;
  box(g, dark, [110, 110, 1], [(layout.windowX + layout.boardFaceX) / 2 - 10, Math.min(fanY, H - 70), out]);
  const slotTop = layout.boardTopY - layout.board.pcieV[0]! + 10;
  for (let i = 0; i < 7; i++) {
    const y = slotTop - i * 20.32;
    if (y < layout.psu.max[1] + 15) break;
    box(g, kit.metal('#7d8288', 0.5), [100, 15, 1], [layout.boardFaceX - 70, y, out]);
  }
  const p = layout.psu;
  box(g, dark, [p.max[0] - p.min[0] - 6, p.max[1] - p.min[1] - 6, 1], [(p.min[0] + p.max[0]) / 2, (p.min[1] + p.max[1]) / 2, out]);
}

function buildWindowSide(g: THREE.Group, kit: MaterialKit, layout: CaseLayout, specs: CaseSpecs): void {
  const { width: W, height: H, depth: D } = layout;
  const x = -W / 2 + WALL / 2;
  if (specs.sidePanel === 'solid') {
    box(g, kit.solid(specs.color, 0.45, 0.35), [WALL, H, D], [x, H / 2, 0]);
    box(g, kit.solid(specs.accentColor, 0.35, 0.6), [1, 3, D * 0.6], [-W / 2 - 0.5, H * 0.12, 0]);
    return;
  }
  if (specs.sidePanel === 'mesh') {
    const m = new THREE.Mesh(scaledUvBox(WALL, H - 24, D - 24, 8, 'x'), kit.perforated(darken(specs.color, 0.9)));
    m.position.set(x, H / 2, 0);
    m.castShadow = true;
    m.userData.keep = true;
    g.add(m);
    frame(g, kit.solid(specs.color, 0.45, 0.35), W, H, D, 12);
    return;
  }
  // tempered glass: tinted pane, black screen-printed border, additive sheen
  const glass = new THREE.Mesh(new THREE.BoxGeometry(4, H - 2, D - 2), kit.glass());
  glass.position.set(-W / 2 + 2, H / 2, 0);
  glass.userData.keep = true;
  glass.renderOrder = 2;
  g.add(glass);
  const sheen = new THREE.Mesh(new THREE.PlaneGeometry(D - 4, H - 4), kit.glassSheen());
  sheen.rotation.y = -Math.PI / 2;
  sheen.position.set(-W / 2 - 0.3, H / 2, 0);
  sheen.userData.keep = true;
  sheen.renderOrder = 3;
  g.add(sheen);
  frame(g, kit.solid('#08090a', 0.3, 0.1), W, H, D, 10);
}

/** A border of width `b` just inside the window-side panel (frame or screen print). */
function frame(g: THREE.Group, m: THREE.Material, W: number, H: number, D: number, b: number): void {
  const x = -W / 2 + 2.5;
  box(g, m, [1.5, b, D], [x, b / 2 + 1, 0]);
  box(g, m, [1.5, b, D], [x, H - b / 2 - 1, 0]);
  box(g, m, [1.5, H, b], [x, H / 2, D / 2 - b / 2 - 1]);
  box(g, m, [1.5, H, b], [x, H / 2, -D / 2 + b / 2 + 1]);
}

/** A box whose UVs repeat every `pitch` mm over its large faces (perforation pattern). */
function scaledUvBox(w: number, h: number, d: number, pitch: number, thin: 'x' | 'z' = 'z'): THREE.BufferGeometry {
  const g = new THREE.BoxGeometry(w, h, d);
  const uv = g.getAttribute('uv') as THREE.BufferAttribute;
  const su = (thin === 'x' ? d : w) / pitch;
  const sv = h / pitch;
  for (let i = 0; i < uv.count; i++) uv.setXY(i, uv.getX(i) * su, uv.getY(i) * sv);
  return g;
}

function darken(color: string, k: number): string {
  return `#${new THREE.Color(color).multiplyScalar(k).getHexString()}`;
}

function trayColor(color: string): string {
  const c = new THREE.Color(color);
  const l = (c.r + c.g + c.b) / 3;
  return l < 0.1 ? `#${c.offsetHSL(0, 0, 0.06).getHexString()}` : darken(color, 0.85);
}
