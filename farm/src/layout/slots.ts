/**
 * Fan slots a case can hold, derived from its size and the fan size (docs/design-decisions.md, "Saved interactive state"):
 * `<panel>-<n>` with panels front, top, rear, bottom, side.
 *
 *   front-1..n  behind the front panel, a column numbered from the top
 *   top-1..n    under the top panel, a row numbered from the rear (where a radiator's tubes reach)
 *   rear-1      the exhaust above the I/O shield (fans up to 140 mm)
 *   bottom-1..n on the floor (or the PSU shroud), a row numbered from the front
 *   side-1..n   on the tray side in front of the motherboard, a column numbered from the top
 */
import { chamberCenterX, FRONT_ZONE, WALL, type CaseLayout } from './case-layout.js';

export type Panel = 'front' | 'top' | 'rear' | 'bottom' | 'side';
export const PANELS: readonly Panel[] = ['front', 'top', 'rear', 'bottom', 'side'];

export interface FanSlot {
  id: string;
  panel: Panel;
  /** 1-based position on its panel */
  index: number;
  sizeMm: number;
  /** centre of a 25 mm fan in this slot (case mm) */
  center: [number, number, number];
  /** unit vector from the panel into the case (the fan's axis) */
  inward: [number, number, number];
}

const GAP = 4;
const FAN_THICKNESS = 25;
const MAX_PER_PANEL = 9;

/** Centres of as many `size` fans as fit in [lo, hi], evenly centred in the span. */
function row(lo: number, hi: number, size: number): number[] {
  const n = Math.min(MAX_PER_PANEL, Math.floor((hi - lo + GAP) / (size + GAP)));
  if (n <= 0) return [];
  const used = n * size + (n - 1) * GAP;
  const first = lo + (hi - lo - used) / 2 + size / 2;
  return Array.from({ length: n }, (_, i) => first + i * (size + GAP));
}

/** x centre for a fan spanning the interior width, preferring `want`. Null when too narrow. */
function fitX(
  layout: CaseLayout,
  size: number,
  want: number,
  maxX = layout.dualChamber ? layout.trayX - 2 : layout.width / 2 - WALL - 2,
): number | null {
  const lo = layout.windowX + 2 + size / 2;
  const hi = maxX - size / 2;
  if (hi < lo) return null;
  return Math.min(hi, Math.max(lo, want));
}

/** Every slot for fans of `sizeMm` in a case, in panel order. */
export function deriveSlots(layout: CaseLayout, sizeMm: number): FanSlot[] {
  const size = Math.max(40, Math.min(250, Number.isFinite(sizeMm) ? sizeMm : 120));
  const half = FAN_THICKNESS / 2;
  const { height, depth } = layout;
  const cx = chamberCenterX(layout);
  const slots: FanSlot[] = [];
  const add = (panel: Panel, centers: [number, number, number][], inward: [number, number, number]) =>
    centers.forEach((center, i) =>
      slots.push({ id: `${panel}-${i + 1}`, panel, index: i + 1, sizeMm: size, center, inward }),
    );

  // front: a column from the top
  const fx = fitX(layout, size, cx);
  if (fx !== null) {
    const z = depth / 2 - WALL - 3 - half;
    // the PSU shroud stops short of the front fans, so the column runs floor to roof
    const ys = row(WALL + 4, height - WALL - 4, size).reverse();
    add(
      'front',
      ys.map((y) => [fx, y, z]),
      [0, 0, -1],
    );
  }

  // top: clear of the board when there is head room, else pushed toward the window past the RAM
  const topGap = height - WALL - layout.boardTopY;
  const tx =
    topGap >= FAN_THICKNESS + 6 ? fitX(layout, size, cx) : fitX(layout, size, -Infinity, layout.boardFaceX - 50);
  if (tx !== null) {
    const y = height - WALL - 3 - half;
    const zs = row(-depth / 2 + WALL + 4, depth / 2 - WALL - FRONT_ZONE - 2, size);
    add(
      'top',
      zs.map((z) => [tx, y, z]),
      [0, -1, 0],
    );
  }

  // rear: one exhaust level with the CPU, clear of the I/O shield
  if (size <= 140) {
    const rx = fitX(layout, size, cx, layout.boardFaceX - 32);
    const y = Math.min(height - WALL - 3 - size / 2, layout.boardTopY - layout.board.socket.v);
    if (rx !== null && y - size / 2 > layout.floorY) add('rear', [[rx, y, -depth / 2 + WALL + 3 + half]], [0, 0, 1]);
  }

  // bottom: on the shroud, or on the floor in front of the PSU
  const bx = fitX(layout, size, cx);
  if (bx !== null) {
    // (a dual-chamber case keeps its PSU behind the tray: the whole floor is free)
    const zLo = layout.shroud || layout.dualChamber ? -depth / 2 + WALL + 4 : layout.psu.max[2] + 8;
    const zs = row(zLo, depth / 2 - WALL - FRONT_ZONE - 2, size).reverse();
    add(
      'bottom',
      zs.map((z) => [bx, layout.floorY + 3 + half, z]),
      [0, 1, 0],
    );
  }

  // side: a column on the tray side, between the board's front edge and the front fans
  const zLo = layout.boardRearZ + layout.board.width + 8;
  const zHi = depth / 2 - WALL - FRONT_ZONE;
  if (zHi - zLo >= size) {
    const ys = row(layout.floorY + 4, height - WALL - 4, size).reverse();
    const z = (zLo + zHi) / 2;
    add(
      'side',
      ys.map((y) => [layout.trayX - 3 - half, y, z]),
      [-1, 0, 0],
    );
  }
  return slots;
}

/** Parses `front-2` into its panel and index; null when malformed. */
export function parseSlotId(id: string): { panel: Panel; index: number } | null {
  const m = /^(front|top|rear|bottom|side)-([1-9])$/.exec(id);
  return m ? { panel: m[1] as Panel, index: Number(m[2]) } : null;
}
