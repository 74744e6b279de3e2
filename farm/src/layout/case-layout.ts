/**
 * The case coordinate system and where the big things go, in millimetres.
 *
 * Origin at the centre of the case floor; +y up; +z toward the front panel; the side panel
 * on -x is the one the camera sees at the hero angle (glass, in a windowed case). The
 * motherboard tray is on the +x side and components point toward -x, as in a standard ATX
 * tower seen from its window side.
 */
import type { CaseSpecs, MotherboardSpecs, PsuSpecs } from '../../../src/model/part.js';
import { boardLayout, type BoardLayout } from './board-layout.js';

export const WALL = 5;
/** behind the tray: cable space to the +x outer panel */
const CABLE_SPACE = 24;
/** tray to the board's component face: standoffs + PCB */
const STANDOFF = 8;
/** room the front fans take behind the front panel */
export const FRONT_ZONE = 42;
const SHROUD_HEIGHT = 100;
/** a dual-chamber case's main chamber: at least wide enough for a card standing off the board */
const MAIN_CHAMBER_MIN = 175;
/** ...182 mm also fits a 140 mm rear exhaust beside the I/O shield */
const MAIN_CHAMBER_ROOMY = 182;
/** its rear chamber holds an ATX PSU standing on its side (86 mm), and needs no more than 96 */
const REAR_CHAMBER = [86, 96] as const;

/** How a case is built beyond its size: from normalize.ts caseStyle(). */
export interface CaseStyle {
  /** dual-chamber / panoramic: glass front and side, PSU in a chamber behind the tray */
  dualChamber: boolean;
}

export interface Box3mm {
  min: [number, number, number];
  max: [number, number, number];
}

export interface CaseLayout {
  /** outer size actually drawn (grown when the parts would not fit) */
  width: number;
  height: number;
  depth: number;
  /** the -x inner face (behind the side panel the camera sees) */
  windowX: number;
  /** the tray plane and the board's component face (components extend toward -x) */
  trayX: number;
  boardFaceX: number;
  /** y of the PSU shroud's top (WALL when there is no shroud) */
  floorY: number;
  shroud: boolean;
  board: BoardLayout;
  /** case position of the board's rear-top corner (u = 0, v = 0) */
  boardRearZ: number;
  boardTopY: number;
  /** the PSU's box */
  psu: Box3mm;
  /** dual-chamber: the PSU stands on its side behind the tray (its model is turned 90 degrees) */
  dualChamber: boolean;
}

/** Case coordinates (y, z) of board coordinates (u, v). */
export function boardToCase(layout: CaseLayout, u: number, v: number): { y: number; z: number } {
  return { y: layout.boardTopY - v, z: layout.boardRearZ + u };
}

/** Centre x of the main chamber (between the window and the board face). */
export function chamberCenterX(layout: CaseLayout): number {
  return (layout.windowX + layout.boardFaceX) / 2;
}

export function computeCaseLayout(
  pcCase: CaseSpecs,
  board: MotherboardSpecs,
  psu: PsuSpecs | null,
  warnings: string[],
  style: CaseStyle = { dualChamber: false },
): CaseLayout {
  const bl = boardLayout(board.formFactor, board.memorySlots, board.pcieX16Slots, board.m2Slots);
  const psuW = psu && psu.formFactor.startsWith('SFX') ? 125 : 150;
  const psuH = psu && psu.formFactor.startsWith('SFX') ? 64 : 86;
  const psuL = psu ? psu.lengthMm : 160;
  // a dual-chamber case needs room for both chambers; narrower ones are drawn as one chamber
  const inside = pcCase.widthMm - 2 * WALL;
  const dual =
    style.dualChamber &&
    inside - MAIN_CHAMBER_MIN >= REAR_CHAMBER[0] &&
    pcCase.heightMm - 2 * WALL >= psuW + bl.height * 0.5;
  const rearChamber = Math.max(REAR_CHAMBER[0], Math.min(REAR_CHAMBER[1], inside - MAIN_CHAMBER_ROOMY));
  const shroud = pcCase.psuShroud && !dual;
  const shroudH = shroud ? SHROUD_HEIGHT : 0;

  // Grow the shell when the board (or the PSU under it) would poke through a panel.
  const needW = 2 * WALL + CABLE_SPACE + STANDOFF + 135;
  const needH = 2 * WALL + Math.max(shroudH, 10) + bl.height + 20;
  const needD = 2 * WALL + 14 + Math.max(bl.width, 150) + FRONT_ZONE;
  const width = Math.max(pcCase.widthMm, needW);
  const height = Math.max(pcCase.heightMm, needH);
  const depth = Math.max(pcCase.depthMm, needD, psuL + 2 * WALL + 20);
  if (width > pcCase.widthMm || height > pcCase.heightMm || depth > pcCase.depthMm) {
    warnings.push(
      `PCCase ${pcCase.widthMm}x${pcCase.heightMm}x${pcCase.depthMm} mm is too small for a ${board.formFactor} board; drawn ${Math.round(width)}x${Math.round(height)}x${Math.round(depth)} mm`,
    );
  }

  const cableSpace = dual ? rearChamber : CABLE_SPACE;
  const trayX = width / 2 - WALL - cableSpace;
  const topGap = Math.min(60, Math.max(15, height - 2 * WALL - shroudH - bl.height - 10));
  const boardTopY = height - WALL - topGap;
  const boardRearZ = -depth / 2 + WALL + 14;
  const psuBox: Box3mm = dual
    ? // on its side in the rear chamber, at the bottom front (out of the way of the tray's cables)
      {
        min: [trayX + Math.max(0.5, (cableSpace - psuH) / 2), WALL + 2, depth / 2 - WALL - 4 - psuL],
        max: [trayX + Math.max(0.5, (cableSpace - psuH) / 2) + psuH, WALL + 2 + psuW, depth / 2 - WALL - 4],
      }
    : {
        min: [Math.max(-width / 2 + WALL + 2, trayX + CABLE_SPACE / 2 - psuW), WALL + 2, -depth / 2 + WALL + 2],
        max: [0, WALL + 2 + psuH, -depth / 2 + WALL + 2 + psuL],
      };
  if (!dual) psuBox.max[0] = psuBox.min[0] + psuW;
  return {
    width,
    height,
    depth,
    windowX: -width / 2 + WALL,
    trayX,
    boardFaceX: trayX - STANDOFF,
    floorY: shroud ? WALL + shroudH : WALL,
    shroud,
    board: bl,
    boardRearZ,
    boardTopY,
    psu: psuBox,
    dualChamber: dual,
  };
}
