/**
 * Where things sit on a motherboard of each form factor, in board coordinates (millimetres):
 * u runs from the rear (I/O) edge toward the front of the case, v from the top edge downward.
 * Values follow the ATX family drawings closely enough to look right, not to manufacture.
 */
import { boardOutlineMm, SLOT_PITCH_MM, type BoardFormFactor } from '../../../src/model/part.js';

export interface BoardLayout {
  /** size along u (toward the case front) and v (downward) */
  width: number;
  height: number;
  socket: { u: number; v: number; size: number };
  /** u of each DIMM slot, and the v range the slots span */
  dimmU: number[];
  dimmV: [number, number];
  /** v of each PCIe x16 slot (first = the GPU slot); slots run u 52..141 */
  pcieV: number[];
  pcieU: [number, number];
  /** M.2 sockets: centre and length along u */
  m2: { u: number; v: number; length: number }[];
}

const SLOT_PITCH = SLOT_PITCH_MM;

/** The board's outline (model/part.ts: the part-model size check uses it too). */
export const boardSize = boardOutlineMm;

/** Layout of a board with `memorySlots` DIMMs, `pcie` x16 slots and `m2` M.2 sockets. */
export function boardLayout(ff: BoardFormFactor, memorySlots: number, pcie: number, m2: number): BoardLayout {
  const { width, height } = boardSize(ff);
  const itx = ff === 'Mini-ITX';
  const socket = { u: itx ? 78 : ff === 'E-ATX' ? 115 : 100, v: itx ? 62 : 74, size: 40 };
  const dimmCount = itx ? Math.min(2, memorySlots) : Math.min(8, memorySlots);
  const dimmStart = socket.u + (itx ? 52 : 58);
  const dimmPitch = 9.5;
  // 8-slot boards put four DIMMs either side of the socket
  const dimmU: number[] = [];
  for (let i = 0; i < dimmCount; i++) {
    dimmU.push(dimmCount > 4 && i >= 4 ? socket.u - 58 - (i - 4) * dimmPitch : dimmStart + i * dimmPitch);
  }
  const dimmV: [number, number] = [12, 145];
  // the first x16 slot sits below the DIMM slots' ends, so a card's top edge clears them
  const firstSlot = itx ? 157 : 162;
  const pcieV: number[] = [];
  for (let i = 0; i < Math.max(1, pcie); i++) {
    const v = firstSlot + i * 2 * SLOT_PITCH;
    if (v > height - 10) break;
    pcieV.push(v);
  }
  if (pcieV.length === 0) pcieV.push(Math.min(firstSlot, height - 10));
  const m2List: BoardLayout['m2'] = [];
  const m2Candidates = itx
    ? [{ u: 60, v: firstSlot - 30 }]
    : [
        { u: 96, v: firstSlot - 24 },
        { u: 96, v: firstSlot + 28 },
        { u: 96, v: firstSlot + 28 + 2 * SLOT_PITCH },
      ];
  for (const c of m2Candidates.slice(0, m2)) if (c.v < height - 10) m2List.push({ ...c, length: 80 });
  return { width, height, socket, dimmU, dimmV, pcieV, pcieU: [52, 141], m2: m2List };
}

/** Which DIMM slots `sticks` modules go in: the second slot of each channel first, as manuals advise. */
export function dimmFillOrder(slots: number, sticks: number): number[] {
  const n = Math.min(slots, Math.max(0, sticks));
  if (slots === 4 && n === 1) return [1];
  if (slots === 4 && n === 2) return [1, 3];
  if (slots === 2 || n >= slots) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: n }, (_, i) => i);
}
