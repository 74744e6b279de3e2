/**
 * A motherboard in board-local coordinates: origin at the rear-top corner of the component
 * face, -x toward the window (components), -y down the board (v), +z toward the case front (u).
 * Form factor sets the size; socket, DIMM slots, PCIe slots and M.2 sockets come from the
 * board layout so other parts can be placed into them.
 *
 * Drawn: the PCB with a silkscreen (canvas: slot names, traces, the model name), the rear I/O
 * cover with the brand, finned VRM heatsinks around the socket, the socket and its retention
 * frame, DIMM slots with latches, armoured x16 and plain x1 PCIe slots, M.2 heatsink covers,
 * the chipset heatsink, the 24-pin ATX and 8-pin EPS connectors, headers and capacitors.
 * Colours from the data: the PCB; heatsinks gunmetal on dark boards, silver on light ones.
 */
import * as THREE from 'three';
import type { MotherboardSpecs } from '../../../src/model/part.js';
import type { BoardLayout } from '../layout/board-layout.js';
import { canvasTexture, fitText, SANS } from '../util/canvas-texture.js';
import { box, cylinder, roundedBox } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';

/** Where the 24-pin ATX connector's mouth is (board-local), on the board's front edge. */
export function atx24Pin(bl: BoardLayout): THREE.Vector3 {
  return new THREE.Vector3(-15, -82, bl.width - 10);
}

/** Where the 8-pin EPS connector's mouth is (board-local), in the top-left corner. */
export const EPS_8PIN = new THREE.Vector3(-12, -7, 17);

/** A box given in board terms: u range, v range and height off the board. */
function onBoard(
  g: THREE.Group,
  m: THREE.Material,
  u0: number,
  u1: number,
  v0: number,
  v1: number,
  h: number,
  x0 = 0,
): THREE.Mesh {
  return box(g, m, [h, v1 - v0, u1 - u0], [x0 - h / 2, -(v0 + v1) / 2, (u0 + u1) / 2]);
}

function roundedOnBoard(
  g: THREE.Group,
  m: THREE.Material,
  u0: number,
  u1: number,
  v0: number,
  v1: number,
  h: number,
  r: number,
): THREE.Mesh {
  return roundedBox(g, m, [h, v1 - v0, u1 - u0], [-h / 2, -(v0 + v1) / 2, (u0 + u1) / 2], r, 1);
}

/** Silkscreen and traces over the PCB colour: slot names, outlines, the model name. */
function silkscreen(specs: MotherboardSpecs, bl: BoardLayout, name: string): THREE.Texture | null {
  const scale = 2; // px per mm
  return canvasTexture(Math.round(bl.width * scale), Math.round(bl.height * scale), (ctx, w, h) => {
    const u = (mm: number) => mm * scale;
    ctx.fillStyle = specs.color;
    ctx.fillRect(0, 0, w, h);
    const c = new THREE.Color(specs.color);
    const lightBoard = (c.r + c.g + c.b) / 3 > 0.45;
    // traces: thin lighter lines in bundles
    ctx.strokeStyle = lightBoard ? 'rgba(0,0,0,0.10)' : 'rgba(255,255,255,0.07)';
    ctx.lineWidth = 1;
    for (let i = 0; i < 40; i++) {
      const y = u(bl.socket.v + 40 + ((i * 37) % Math.max(20, bl.height - bl.socket.v - 50)));
      const x0 = u(30 + ((i * 53) % 60));
      ctx.beginPath();
      ctx.moveTo(x0, y);
      ctx.lineTo(x0 + u(40 + (i % 5) * 12), y);
      ctx.lineTo(x0 + u(52 + (i % 5) * 12), y + u(8));
      ctx.stroke();
    }
    ctx.strokeStyle = ctx.fillStyle = lightBoard ? '#4a4d52' : '#e6e8ea';
    ctx.globalAlpha = 0.75;
    ctx.lineWidth = 2;
    ctx.font = `bold ${u(3.2)}px ${SANS}`;
    ctx.textBaseline = 'middle';
    // socket outline and label
    const s = bl.socket;
    ctx.strokeRect(u(s.u - 33), u(s.v - 33), u(66), u(66));
    ctx.fillText(specs.socket.toUpperCase(), u(s.u - 32), u(s.v + 37));
    // DIMM labels
    bl.dimmU.forEach((du, i) =>
      ctx.fillText(`DIMM_${'AB'[i % 2]}${1 + Math.floor(i / 2)}`, u(du - 3), u(bl.dimmV[1] + 10)),
    );
    // PCIe labels
    bl.pcieV.forEach((v, i) => ctx.fillText(`PCIEX16_${i + 1}`, u(bl.pcieU[1] + 4), u(v)));
    // the model name, large, in the free area under the slots
    const model = name
      .replace(/\b(ATX|E-ATX|Micro ATX|Mini-ITX|AM[45]|LGA\s*\d+|Black|White|Grey|Gray|Green|Blue|Gold)\b/gi, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (model) {
      ctx.globalAlpha = 0.9;
      ctx.textAlign = 'left';
      fitText(
        ctx,
        model.toUpperCase(),
        u(bl.pcieU[0]),
        u(Math.min(bl.height - 24, (bl.pcieV[0] ?? 160) + 24)),
        u(bl.width * 0.55),
        u(8),
      );
    }
    ctx.globalAlpha = 1;
  });
}

export function buildMotherboard(kit: MaterialKit, specs: MotherboardSpecs, bl: BoardLayout, name = ''): THREE.Group {
  const g = new THREE.Group();
  const c = new THREE.Color(specs.color);
  const light = (c.r + c.g + c.b) / 3 > 0.45;
  const pcb = kit.solid(specs.color, 0.6, 0.15);
  const heatsink = kit.brushed(light ? '#d5d8dc' : '#45484e', 0.38);
  const fin = kit.metal(light ? '#b9bdc3' : '#2a2c30', 0.5);
  const plastic = kit.plastic(light ? '#e3e5e8' : '#141518', 0.55);
  const slotPlastic = kit.plastic(light ? '#d9dbde' : '#1b1c1f', 0.5);
  const silver = kit.brushed('#c3c7cc', 0.3);
  const { width: W, height: H, socket: s } = bl;

  // PCB body, and its face with the silkscreen
  box(g, pcb, [1.6, H, W], [0.8, -H / 2, W / 2]);
  const face = new THREE.Mesh(
    new THREE.PlaneGeometry(W, H),
    kit.textured(
      `silk:${name}:${specs.color}:${specs.socket}:${W}x${H}:${bl.dimmU.length}:${bl.pcieV.length}`,
      () => silkscreen(specs, bl, name),
      specs.color,
      { roughness: 0.6, metalness: 0.1 },
    ),
  );
  face.rotation.y = -Math.PI / 2;
  face.position.set(-0.05, -H / 2, W / 2);
  face.name = 'silkscreen';
  g.add(face);

  // rear I/O cover, with the brand down its side
  roundedOnBoard(g, heatsink, 0, 28, 2, Math.min(H * 0.55, 150), 34, 3);
  const brand = (name.trim().split(/\s+/)[0] ?? '').toUpperCase();
  if (brand) {
    const logo = new THREE.Mesh(
      new THREE.PlaneGeometry(Math.min(H * 0.5, 140) * 0.8, 14),
      kit.textured(
        `io-logo:${brand}:${light}`,
        () =>
          canvasTexture(512, 64, (ctx, w, h) => {
            ctx.clearRect(0, 0, w, h);
            ctx.fillStyle = light ? '#3a3d42' : '#dfe2e6';
            ctx.textAlign = 'center';
            ctx.textBaseline = 'middle';
            fitText(ctx, brand, w / 2, h / 2, w * 0.9, 48, 'bold', 'italic');
          }),
        light ? '#d5d8dc' : '#45484e',
        { transparent: true, roughness: 0.4 },
      ),
    );
    logo.rotation.set(0, -Math.PI / 2, -Math.PI / 2);
    logo.position.set(-34.2, -(2 + Math.min(H * 0.55, 150)) / 2, 14);
    g.add(logo);
  }
  // VRM heatsinks above and left of the socket, finned on top
  const vrmTop: [number, number, number, number] = [32, s.u + 28, 6, s.v - 32];
  const vrmLeft: [number, number, number, number] = [32, s.u - 34, s.v - 32, s.v + 44];
  for (const [u0, u1, v0, v1] of [vrmTop, vrmLeft]) {
    onBoard(g, heatsink, u0, u1, v0, v1, 16);
    const along = u1 - u0 > v1 - v0;
    const n = Math.floor((along ? u1 - u0 : v1 - v0) / 4);
    for (let i = 0; i < n; i++) {
      if (along) onBoard(g, fin, u0 + i * 4 + 1, u0 + i * 4 + 2.6, v0 + 1, v1 - 1, 10, -16);
      else onBoard(g, fin, u0 + 1, u1 - 1, v0 + i * 4 + 1, v0 + i * 4 + 2.6, 10, -16);
    }
  }
  // socket frame and retention
  const half = s.size / 2 + 9;
  onBoard(g, plastic, s.u - half, s.u + half, s.v - half, s.v + half, 3);
  onBoard(g, silver, s.u - half, s.u - half + 4, s.v - half, s.v + half, 5);
  onBoard(g, silver, s.u + half - 4, s.u + half, s.v - half, s.v + half, 5);
  // EPS 8-pin in the top-left corner
  onBoard(g, plastic, 8, 26, 3, 11, 12);
  onBoard(g, kit.solid('#050506', 0.8, 0), 9, 25, 4, 10, 0.4, -12);

  // DIMM slots with latches
  for (const u of bl.dimmU) {
    onBoard(g, slotPlastic, u - 3, u + 3, bl.dimmV[0], bl.dimmV[1], 8);
    onBoard(g, plastic, u - 3.5, u + 3.5, bl.dimmV[1], bl.dimmV[1] + 6, 9);
    onBoard(g, plastic, u - 3.5, u + 3.5, bl.dimmV[0] - 5, bl.dimmV[0], 9);
  }
  // 24-pin ATX power on the front edge
  const atx = atx24Pin(bl);
  if (W - 20 > (bl.dimmU[bl.dimmU.length - 1] ?? 0) + 8) {
    onBoard(g, plastic, W - 16, W - 4, -atx.y - 27, -atx.y + 27, 15);
    onBoard(g, kit.solid('#050506', 0.8, 0), W - 15, W - 5, -atx.y - 26, -atx.y + 26, 0.4, -15);
  }

  // PCIe: armoured x16 slots, plain x1 slots between them
  bl.pcieV.forEach((v, i) => {
    onBoard(g, i === 0 ? silver : slotPlastic, bl.pcieU[0], bl.pcieU[1], v - 3.5, v + 3.5, 11);
    onBoard(g, plastic, bl.pcieU[1], bl.pcieU[1] + 6, v - 4, v + 4, 12);
    const x1 = v + 20.32;
    if (x1 < H - 14 && !bl.pcieV.some((o) => Math.abs(o - x1) < 10))
      onBoard(g, slotPlastic, bl.pcieU[0] + 40, bl.pcieU[0] + 65, x1 - 3, x1 + 3, 10);
  });
  // M.2 heatsink covers over every socket (drives sit under them)
  for (const m of bl.m2) {
    roundedOnBoard(g, heatsink, m.u - m.length / 2 - 2, m.u + m.length / 2 + 2, m.v - 12, m.v + 12, 7, 1.5);
    for (let k = 0; k < 3; k++)
      onBoard(g, fin, m.u - m.length / 2 + 6 + k * 4, m.u - m.length / 2 + 8 + k * 4, m.v - 10, m.v + 10, 0.6, -7);
  }

  // chipset heatsink with an accent plate
  if (H > 200) {
    roundedOnBoard(g, heatsink, W - 80, W - 20, H - 95, H - 40, 11, 3);
    onBoard(g, kit.brushed(light ? '#9aa0a8' : '#8a8f97', 0.3), W - 70, W - 30, H - 85, H - 50, 0.8, -11);
  }
  // headers along the bottom edge and a few capacitors near the audio corner
  for (let i = 0; i < 5; i++) onBoard(g, plastic, 30 + i * 34, 48 + i * 34, H - 9, H - 3, 8);
  const cap = kit.metal('#c9a227', 0.4);
  for (let i = 0; i < 4; i++) cylinder(g, cap, 3, 10, [-5, -(H - 30), 10 + i * 8], 'x', 10);
  g.traverse((o) => {
    const m = o as THREE.Mesh;
    if (m.isMesh && !(m.material as THREE.Material).transparent) o.castShadow = o.receiveShadow = true;
  });
  return g;
}
