/**
 * The part model shared by the catalog, the API and the renderer (farm/ imports these types).
 * `specs` holds only normalised, render-relevant values; the raw OpenDB record is kept apart.
 * A build's saved interactive state is in interactive-state.ts.
 */

export const CATEGORIES = [
  'PCCase',
  'Motherboard',
  'CPU',
  'CPUCooler',
  'GPU',
  'RAM',
  'Storage',
  'PSU',
  'CaseFan',
] as const;
export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && (CATEGORIES as readonly string[]).includes(value);
}

/** Motherboard form factors, largest first. */
export const BOARD_FORM_FACTORS = ['E-ATX', 'ATX', 'Micro ATX', 'Mini-ITX'] as const;
export type BoardFormFactor = (typeof BOARD_FORM_FACTORS)[number];

/** A board's outline in millimetres (width along the case's depth, height), per form factor. */
export function boardOutlineMm(ff: BoardFormFactor): { width: number; height: number } {
  switch (ff) {
    case 'E-ATX':
      return { width: 330, height: 305 };
    case 'Micro ATX':
      return { width: 244, height: 244 };
    case 'Mini-ITX':
      return { width: 170, height: 170 };
    default:
      return { width: 244, height: 305 };
  }
}

/** One expansion slot's pitch, mm (PCIe cards are this many mm thick per slot). */
export const SLOT_PITCH_MM = 20.32;

/** A graphics card's height from the board face toward the window, mm (the stage draws every card so). */
export const GPU_CARD_HEIGHT_MM = 126;

/*
 * Value domains of the specs, shared by the OpenDB import (catalog/opendb-map.ts) and the
 * normaliser both the import and the stage run (normalize-specs.ts).
 */

/** AIO radiator lengths in millimetres (an air cooler has 0). */
export const RADIATOR_SIZES = [120, 140, 240, 280, 360, 420] as const;
export type RadiatorSize = (typeof RADIATOR_SIZES)[number];

/** The radiator length closest to `mm`. */
export function snapRadiator(mm: number): RadiatorSize {
  return RADIATOR_SIZES.reduce<RadiatorSize>(
    (a, b) => (Math.abs(b - mm) < Math.abs(a - mm) ? b : a),
    RADIATOR_SIZES[0],
  );
}

/** The fan size a radiator of this length carries: 140 mm fans on 140/280/420, else 120 mm. */
export function radiatorFanSize(radiatorMm: number): 120 | 140 {
  return radiatorMm % 140 === 0 ? 140 : 120;
}

/** Fan frame sizes in millimetres (case fans snap to the nearest). */
export const FAN_SIZES = [80, 92, 120, 140, 200] as const;

export const PSU_FORM_FACTORS = ['ATX', 'SFX', 'SFX-L', 'TFX'] as const;
/** A PSU's typical length per form factor, for data without one. */
export const PSU_LENGTH_MM: Record<(typeof PSU_FORM_FACTORS)[number], number> = {
  ATX: 150,
  SFX: 100,
  'SFX-L': 125,
  TFX: 175,
};

/** Colours are CSS hex strings (`#1a1a1a`). */
export interface CaseSpecs {
  /** e.g. "ATX Mid Tower", "Mini ITX Tower" */
  type: string;
  /** largest motherboard form factor the case takes */
  maxBoard: BoardFormFactor;
  /** outer size in millimetres (derived from type when the record has none) */
  widthMm: number;
  heightMm: number;
  depthMm: number;
  sidePanel: 'glass' | 'mesh' | 'solid';
  color: string;
  accentColor: string;
  maxGpuLengthMm: number;
  /** whether the case hides the PSU under a shroud */
  psuShroud: boolean;
  rgb: boolean;
}

export interface MotherboardSpecs {
  formFactor: BoardFormFactor;
  socket: string;
  color: string;
  memorySlots: number;
  pcieX16Slots: number;
  m2Slots: number;
}

export interface CpuSpecs {
  socket: string;
  brand: 'Intel' | 'AMD' | 'Other';
  cores: number;
}

export interface CoolerSpecs {
  type: 'air' | 'liquid';
  /** 0 for air coolers */
  radiatorMm: 0 | RadiatorSize;
  /** tower height for air coolers */
  heightMm: number;
  fanSizeMm: number;
  fanCount: number;
  color: string;
  rgb: boolean;
}

export interface GpuSpecs {
  lengthMm: number;
  /** expansion slots the card occupies (2, 2.5, 3 ...) */
  slotWidth: number;
  fanCount: number;
  color: string;
  rgb: boolean;
  brand: 'NVIDIA' | 'AMD' | 'Intel' | 'Other';
}

export interface RamSpecs {
  /** sticks in the kit */
  modules: number;
  capacityGb: number;
  heightMm: number;
  color: string;
  rgb: boolean;
}

export interface StorageSpecs {
  formFactor: 'M.2' | '2.5' | '3.5';
  kind: 'SSD' | 'HDD';
  capacityGb: number;
}

export interface PsuSpecs {
  formFactor: (typeof PSU_FORM_FACTORS)[number];
  lengthMm: number;
  wattage: number;
  color: string;
}

export interface CaseFanSpecs {
  sizeMm: number;
  /** fans in the pack */
  quantity: number;
  color: string;
  rgb: boolean;
}

export interface SpecsByCategory {
  PCCase: CaseSpecs;
  Motherboard: MotherboardSpecs;
  CPU: CpuSpecs;
  CPUCooler: CoolerSpecs;
  GPU: GpuSpecs;
  RAM: RamSpecs;
  Storage: StorageSpecs;
  PSU: PsuSpecs;
  CaseFan: CaseFanSpecs;
}

export interface Part<C extends Category = Category> {
  id: string;
  category: C;
  name: string;
  specs: SpecsByCategory[C];
}

/** Part IDs grouped by category, as in the API. */
export type PartIdMap = Partial<Record<Category, string[]>>;
