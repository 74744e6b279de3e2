/**
 * A motherboard in board-local coordinates: origin at the rear-top corner of the component
 * face, -x toward the window (components), -y down the board (v), +z toward the case front (u).
 * Form factor sets the size; socket, DIMM slots, PCIe slots and M.2 sockets come from the
 * board layout so other parts can be placed into them.
 */
import * as THREE from 'three';
import type { MotherboardSpecs } from '../../../src/model/part.js';
import type { BoardLayout } from '../layout/board-layout.js';
import { box } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';

/** A box given in board terms: u range, v range and height off the board. */
function onBoard(g: THREE.Group, m: THREE.Material, u0: number, u1: number, v0: number, v1: number, h: number): THREE.Mesh {
  return box(g, m, [h, v1 - v0, u1 - u0], [-h / 2, -(v0 + v1) / 2, (u0 + u1) / 2]);
}

export function buildMotherboard(kit: MaterialKit, specs: MotherboardSpecs, bl: BoardLayout): THREE.Group {
  const g = new THREE.Group();
  const pcb = kit.solid(specs.color, 0.6, 0.15);
  const heatsink = kit.solid(heatsinkColor(specs.color), 0.35, 0.75);
  const plastic = kit.solid('#141518', 0.55, 0.05);
  const silver = kit.metal('#c3c7cc', 0.3);
  const { width: W, height: H, socket: s } = bl;

  box(g, pcb, [1.6, H, W], [0.8, -H / 2, W / 2]);
  // subtle traces pattern: a few lighter lines across the board
  const trace = kit.solid(lighten(specs.color, 1.35), 0.5, 0.2);
  for (let i = 0; i < 5; i++) onBoard(g, trace, s.u + 30, W - 30, s.v + 38 + i * 3.2, s.v + 38.8 + i * 3.2, 0.25);

  // rear I/O cover and VRM heatsinks around the socket
  onBoard(g, heatsink, 0, 26, 2, Math.min(H * 0.55, 150), 34);
  onBoard(g, heatsink, 30, s.u + 26, 6, s.v - 30, 26);
  onBoard(g, heatsink, 30, s.u - 32, s.v - 30, s.v + 42, 26);
  // socket frame and retention
  const half = s.size / 2 + 9;
  onBoard(g, plastic, s.u - half, s.u + half, s.v - half, s.v + half, 3);
  onBoard(g, silver, s.u - half, s.u - half + 4, s.v - half, s.v + half, 5);
  onBoard(g, silver, s.u + half - 4, s.u + half, s.v - half, s.v + half, 5);
  // EPS power header
  onBoard(g, plastic, 8, 26, 3, 11, 12);

  // DIMM slots with latches
  for (const u of bl.dimmU) {
    onBoard(g, plastic, u - 3, u + 3, bl.dimmV[0], bl.dimmV[1], 8);
    onBoard(g, kit.solid('#3a3c41', 0.5, 0.1), u - 3.5, u + 3.5, bl.dimmV[1], bl.dimmV[1] + 6, 9);
  }
  // 24-pin ATX power on the front edge
  if (W - 20 > (bl.dimmU[bl.dimmU.length - 1] ?? 0) + 8) onBoard(g, plastic, W - 16, W - 4, 55, 110, 15);

  // PCIe x16 slots: the first armoured
  bl.pcieV.forEach((v, i) => {
    onBoard(g, i === 0 ? silver : plastic, bl.pcieU[0], bl.pcieU[1], v - 3.5, v + 3.5, 11);
  });
  // M.2 sockets (drives and their heatsinks are the Storage model)
  for (const m of bl.m2) onBoard(g, plastic, m.u - m.length / 2 - 6, m.u - m.length / 2, m.v - 11, m.v + 11, 4);

  // chipset heatsink with an accent plate
  if (H > 200) {
    onBoard(g, heatsink, W - 80, W - 20, H - 95, H - 40, 10);
    onBoard(g, kit.solid(accentFor(specs.color), 0.3, 0.6), W - 70, W - 30, H - 85, H - 50, 11);
  }
  // headers along the bottom edge
  for (let i = 0; i < 5; i++) onBoard(g, plastic, 30 + i * 34, 48 + i * 34, H - 9, H - 3, 8);
  // audio capacitors near the rear edge
  const cap = kit.solid('#c9a227', 0.4, 0.6);
  for (let i = 0; i < 4; i++) {
    const c = new THREE.Mesh(new THREE.CylinderGeometry(3, 3, 10, 10), cap);
    c.rotation.z = Math.PI / 2;
    c.position.set(-5, -(H - 30), 10 + i * 8);
    g.add(c);
  }
  g.traverse((o) => {
    o.castShadow = true;
    o.receiveShadow = true;
  });
  return g;
}

/** Dark boards get gunmetal heatsinks, light boards silver ones. */
function heatsinkColor(board: string): string {
  const c = new THREE.Color(board);
  const l = (c.r + c.g + c.b) / 3;
  return l > 0.45 ? '#d5d8dc' : '#45484e';
}

function accentFor(board: string): string {
  const c = new THREE.Color(board);
  const l = (c.r + c.g + c.b) / 3;
  return l > 0.45 ? '#9aa0a8' : '#8a8f97';
}

function lighten(color: string, k: number): string {
  const c = new THREE.Color(color).multiplyScalar(k);
  c.r = Math.min(1, c.r + 0.02);
  c.g = Math.min(1, c.g + 0.02);
  c.b = Math.min(1, c.b + 0.02);
  return `#${c.getHexString()}`;
}
