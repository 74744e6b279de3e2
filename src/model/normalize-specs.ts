/**
 * The one normaliser of part specs: every field present, finite and within a range the stage
 * can draw. The OpenDB import runs it on what it maps (so the catalog stores what is drawn),
 * and the stage runs it again on whatever reaches it (the page takes JSON from outside).
 * Replaced values are reported as warnings (StageInfo.warnings), never thrown.
 */
import {
  BOARD_FORM_FACTORS,
  FAN_SIZES,
  PSU_FORM_FACTORS,
  PSU_LENGTH_MM,
  RADIATOR_SIZES,
  radiatorFanSize,
  type CaseFanSpecs,
  type CaseSpecs,
  type Category,
  type CoolerSpecs,
  type CpuSpecs,
  type GpuSpecs,
  type MotherboardSpecs,
  type Part,
  type PsuSpecs,
  type RamSpecs,
  type SpecsByCategory,
  type StorageSpecs,
} from './part.js';
import { bool, color, num, oneOf, record } from './sanitize.js';

/** Collects "field replaced" warnings for one part. */
class Fixer {
  constructor(
    private readonly label: string,
    private readonly raw: Record<string, unknown>,
    private readonly warnings: string[],
  ) {}
  private note(field: string, used: unknown): void {
    const got = this.raw[field];
    this.warnings.push(
      `${this.label}: ${field} ${got === undefined ? 'missing' : JSON.stringify(got)}, drawn with ${JSON.stringify(used)}`,
    );
  }
  /** A positive size/count; 0, negatives, NaN and absurd values fall back or clamp. */
  size(field: string, fallback: number, min: number, max: number): number {
    const got = this.raw[field];
    const n = num(got, NaN, -Infinity, Infinity);
    if (!Number.isFinite(n) || n <= 0) {
      this.note(field, fallback);
      return fallback;
    }
    const v = Math.min(max, Math.max(min, n));
    if (v !== n) this.note(field, v);
    return v;
  }
  int(field: string, fallback: number, min: number, max: number): number {
    return Math.round(this.size(field, fallback, min, max));
  }
  /** A whole count where 0 is valid (M.2 slots, passive coolers). */
  whole(field: string, fallback: number, min: number, max: number): number {
    const got = this.raw[field];
    const n = num(got, NaN, -Infinity, Infinity);
    if (!Number.isFinite(n) || n < 0) {
      this.note(field, fallback);
      return fallback;
    }
    const v = Math.round(Math.min(max, Math.max(min, n)));
    if (v !== n) this.note(field, v);
    return v;
  }
  color(field: string, fallback: string): string {
    const v = color(this.raw[field], fallback);
    if (this.raw[field] !== undefined && v !== color(this.raw[field], '')) this.note(field, v);
    return v;
  }
  pick<T extends string | number>(field: string, allowed: readonly T[], fallback: T): T {
    const v = oneOf(this.raw[field], allowed, fallback);
    if (v !== this.raw[field]) this.note(field, v);
    return v;
  }
  bool(field: string, fallback: boolean): boolean {
    return bool(this.raw[field], fallback);
  }
  text(field: string, fallback: string): string {
    const v = this.raw[field];
    return typeof v === 'string' && v.trim() ? v.trim() : fallback;
  }
}

/** Typical outer size per case type, for records without dimensions. */
export function caseSizeForType(type: string): [number, number, number] {
  const t = type.toLowerCase();
  if (t.includes('itx')) return [200, 340, 360];
  if (t.includes('full')) return [240, 560, 540];
  if (t.includes('micro') || t.includes('matx') || t.includes('mini tower')) return [210, 420, 400];
  if (t.includes('htpc') || t.includes('desktop')) return [420, 180, 400];
  return [230, 480, 460];
}

function normCase(f: Fixer): CaseSpecs {
  const type = f.text('type', 'ATX Mid Tower');
  const [w, h, d] = caseSizeForType(type);
  return {
    type,
    maxBoard: f.pick('maxBoard', BOARD_FORM_FACTORS, 'ATX'),
    widthMm: f.size('widthMm', w, 150, 400),
    heightMm: f.size('heightMm', h, 200, 800),
    depthMm: f.size('depthMm', d, 200, 800),
    sidePanel: f.pick('sidePanel', ['glass', 'mesh', 'solid'] as const, 'glass'),
    color: f.color('color', '#1b1c1f'),
    accentColor: f.color('accentColor', '#3a3d42'),
    maxGpuLengthMm: f.size('maxGpuLengthMm', 380, 100, 800),
    psuShroud: f.bool('psuShroud', true),
    rgb: f.bool('rgb', false),
  };
}

function normBoard(f: Fixer): MotherboardSpecs {
  return {
    formFactor: f.pick('formFactor', BOARD_FORM_FACTORS, 'ATX'),
    socket: f.text('socket', 'AM5'),
    color: f.color('color', '#1d1f22'),
    memorySlots: f.int('memorySlots', 4, 1, 8),
    pcieX16Slots: f.int('pcieX16Slots', 1, 1, 4),
    m2Slots: f.whole('m2Slots', 2, 0, 5),
  };
}

function normCpu(f: Fixer): CpuSpecs {
  return {
    socket: f.text('socket', 'AM5'),
    brand: f.pick('brand', ['Intel', 'AMD', 'Other'] as const, 'Other'),
    cores: f.int('cores', 8, 1, 256),
  };
}

function normCooler(f: Fixer): CoolerSpecs {
  const type = f.pick('type', ['air', 'liquid'] as const, 'air');
  if (type === 'air') {
    return {
      type,
      radiatorMm: 0,
      heightMm: f.size('heightMm', 155, 35, 200),
      fanSizeMm: f.pick('fanSizeMm', FAN_SIZES, 120),
      fanCount: f.whole('fanCount', 1, 0, 3),
      color: f.color('color', '#c9ccd1'),
      rgb: f.bool('rgb', false),
    };
  }
  const radiatorMm = f.pick('radiatorMm', RADIATOR_SIZES, 240);
  const fanSizeMm = radiatorFanSize(radiatorMm);
  return {
    type,
    radiatorMm,
    heightMm: 0,
    fanSizeMm,
    fanCount: radiatorMm / fanSizeMm,
    color: f.color('color', '#1d1e21'),
    rgb: f.bool('rgb', false),
  };
}

function normGpu(f: Fixer): GpuSpecs {
  const lengthMm = f.size('lengthMm', 285, 150, 420);
  return {
    lengthMm,
    slotWidth: f.size('slotWidth', 2.5, 1, 4),
    fanCount: f.int('fanCount', lengthMm >= 290 ? 3 : 2, 1, 3),
    color: f.color('color', '#2a2c30'),
    rgb: f.bool('rgb', false),
    brand: f.pick('brand', ['NVIDIA', 'AMD', 'Intel', 'Other'] as const, 'Other'),
  };
}

function normRam(f: Fixer): RamSpecs {
  return {
    modules: f.int('modules', 2, 1, 8),
    capacityGb: f.size('capacityGb', 16, 1, 1024),
    heightMm: f.size('heightMm', 42, 30, 70),
    color: f.color('color', '#222326'),
    rgb: f.bool('rgb', false),
  };
}

function normStorage(f: Fixer): StorageSpecs {
  const formFactor = f.pick('formFactor', ['M.2', '2.5', '3.5'] as const, 'M.2');
  return {
    formFactor,
    kind: f.pick('kind', ['SSD', 'HDD'] as const, formFactor === '3.5' ? 'HDD' : 'SSD'),
    capacityGb: f.size('capacityGb', 1000, 1, 100000),
  };
}

function normPsu(f: Fixer): PsuSpecs {
  const formFactor = f.pick('formFactor', PSU_FORM_FACTORS, 'ATX');
  return {
    formFactor,
    lengthMm: f.size('lengthMm', PSU_LENGTH_MM[formFactor], 90, 230),
    wattage: f.size('wattage', 750, 100, 3000),
    color: f.color('color', '#1a1b1e'),
  };
}

function normFan(f: Fixer): CaseFanSpecs {
  const raw = f.size('sizeMm', 120, 40, 250);
  // snap to a real fan size so slots derive cleanly
  const sizeMm = FAN_SIZES.reduce((best, s) => (Math.abs(s - raw) < Math.abs(best - raw) ? s : best), 120 as number);
  return {
    sizeMm,
    quantity: f.int('quantity', 1, 1, 9),
    color: f.color('color', '#1c1d20'),
    rgb: f.bool('rgb', false),
  };
}

const NORMALIZERS: { [C in Category]: (f: Fixer) => SpecsByCategory[C] } = {
  PCCase: normCase,
  Motherboard: normBoard,
  CPU: normCpu,
  CPUCooler: normCooler,
  GPU: normGpu,
  RAM: normRam,
  Storage: normStorage,
  PSU: normPsu,
  CaseFan: normFan,
};

/** Specs of `part` ready to draw; problems are appended to `warnings`. */
export function normalizeSpecs<C extends Category>(
  category: C,
  part: Partial<Part<C>> | null | undefined,
  warnings: string[],
): SpecsByCategory[C] {
  const raw = record(part?.specs);
  const label = `${category} ${typeof part?.id === 'string' ? part.id : '?'}`;
  const fixer = new Fixer(label, raw, warnings);
  return NORMALIZERS[category](fixer);
}

/**
 * Dual-chamber / panoramic cases (glass front and side, PSU behind the tray): the catalog has
 * no field for it yet, so a `dualChamber` (or `panoramic`) flag in the specs wins when present,
 * else the product name: "dual chamber", "dual glass", "panoramic", and the well-known series
 * (Lian Li O11, HYTE Y40/Y60/Y70). Solid-panel cases never are.
 */
export function caseStyle(part: unknown, specs: CaseSpecs): { dualChamber: boolean } {
  if (specs.sidePanel !== 'glass') return { dualChamber: false };
  const p = record(part);
  const raw = record(p.specs);
  const flag = raw.dualChamber ?? raw.panoramic;
  if (typeof flag === 'boolean') return { dualChamber: flag };
  const name = typeof p.name === 'string' ? p.name : '';
  return { dualChamber: /dual[\s-]?(chamber|glass)|panoram|\bPC-?O11\b|\bO11\b|\bY[467]0\b/i.test(name) };
}
