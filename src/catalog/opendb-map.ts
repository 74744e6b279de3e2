/**
 * Pure mapping of one BuildCores OpenDB record to the normalised part model (model/part.ts).
 *
 * Real records are messy (nulls, `"3 Fans"` strings, dimensions as free text, empty colour
 * lists, slot widths in millimetres), so every spec is derived with a fallback chain:
 * the record's own field when it is plausible, then hints in the product name, then a
 * default typical for the part's kind. The result then goes through the one spec normaliser
 * (model/normalize-specs.ts), the same the stage applies, so the catalog stores exactly what
 * is drawn. A record is unusable only when it is not an object or has no name: the renderer
 * can draw any part from defaults.
 */
import { createHash } from 'node:crypto';
import { normalizeSpecs } from '../model/normalize-specs.js';
import {
  PSU_LENGTH_MM,
  radiatorFanSize,
  snapRadiator,
  type BoardFormFactor,
  type CaseFanSpecs,
  type CaseSpecs,
  type Category,
  type CoolerSpecs,
  type CpuSpecs,
  type GpuSpecs,
  type MotherboardSpecs,
  type PsuSpecs,
  type RamSpecs,
  type SpecsByCategory,
  type StorageSpecs,
} from '../model/part.js';
import { isUuid } from '../model/uuid.js';

/** Result of mapping one record. */
export type OpenDbMapResult<C extends Category = Category> =
  | { ok: true; name: string; specs: SpecsByCategory[C] }
  | { ok: false; reason: string };

type Rec = Record<string, unknown>;

/** Whether a string is an OpenDB id (a UUID). */
export function isOpenDbId(value: unknown): value is string {
  return typeof value === 'string' && isUuid(value);
}

const ID_SPACE = 36n ** 9n;

/**
 * Stable 9-character lowercase base36 part ID for an OpenDB id: SHA-256 of the lowercased
 * UUID, reduced modulo 36^9 (~47 bits), so 30k records collide with probability ~1e-5
 * (the importer still detects and reports a collision instead of overwriting).
 */
export function partIdFromOpenDbId(opendbId: string): string {
  const digest = createHash('sha256').update(opendbId.trim().toLowerCase()).digest();
  const n = digest.readBigUInt64BE(0) % ID_SPACE;
  return n.toString(36).padStart(9, '0');
}

// ---------------------------------------------------------------- small readers

function obj(v: unknown): Rec | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** A finite number (numeric strings like "267 mm" included) within [min, max], else undefined. */
function num(v: unknown, min: number, max: number): number | undefined {
  let n: number | undefined;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string') {
    const m = /-?\d+(\.\d+)?/.exec(v);
    n = m ? Number(m[0]) : undefined;
  }
  return n !== undefined && Number.isFinite(n) && n >= min && n <= max ? n : undefined;
}

function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

/** First capture of `re` in the name, as a number within range. */
function fromName(name: string, re: RegExp, min: number, max: number): number | undefined {
  const m = re.exec(name);
  return m ? num(m[1], min, max) : undefined;
}

// ---------------------------------------------------------------- colours

/** OpenDB colour names to the hex values the renderer paints with. */
export const COLOR_HEX: Record<string, string> = {
  BLACK: '#1b1c1e',
  WHITE: '#eeeff1',
  GREY: '#7c8087',
  GRAY: '#7c8087',
  SILVER: '#c3c6cb',
  RED: '#b3202a',
  BLUE: '#2a5fc4',
  GREEN: '#2f8f4e',
  PINK: '#f0a1c2',
  BROWN: '#7a5233',
  ORANGE: '#e0701f',
  YELLOW: '#e8c21c',
  GOLD: '#c9a23a',
  PURPLE: '#6f3fb8',
};

const NAME_COLORS: [RegExp, string][] = [
  [/\bwhite\b|\bsnow\b/i, 'WHITE'],
  [/\bblack\b/i, 'BLACK'],
  [/\bsilver\b/i, 'SILVER'],
  [/\bgr[ae]y\b|\bgunmetal\b/i, 'GREY'],
  [/\bpink\b/i, 'PINK'],
  [/\bred\b/i, 'RED'],
  [/\bblue\b/i, 'BLUE'],
  [/\bgreen\b/i, 'GREEN'],
  [/\bpurple\b/i, 'PURPLE'],
  [/\bgold\b/i, 'GOLD'],
  [/\borange\b/i, 'ORANGE'],
  [/\byellow\b/i, 'YELLOW'],
  [/\bbrown\b|\bwood\b|\bwalnut\b/i, 'BROWN'],
];

interface Colors {
  color: string;
  accent: string;
  /** the colour list says RGB */
  rgb: boolean;
}

/**
 * Primary and accent colour: the record's list (without the pseudo-colour "RGB"), else
 * colour words in the name (an empty list is common), else black.
 */
function colors(rec: Rec, name: string, metalsAreRatings = false): Colors {
  const list = strings(rec.color).map((c) => c.trim().toUpperCase());
  const rgb = list.includes('RGB');
  let known = list.filter((c) => COLOR_HEX[c]);
  if (known.length === 0) {
    // "80+ Gold" is an efficiency rating, not a colour
    const words = name.replace(/80\s*(\+|plus)?\s*(white|bronze|silver|gold|platinum|titanium)\b/gi, ' ');
    known = NAME_COLORS.filter(([re]) => re.test(words))
      .map(([, c]) => c)
      // PSU names say "Prime Gold", "Silver Power" for their efficiency, not their paint
      .filter((c) => !metalsAreRatings || (c !== 'GOLD' && c !== 'SILVER'));
  }
  const first = known[0] ?? 'BLACK';
  const second = known.find((c) => c !== first) ?? first;
  return { color: COLOR_HEX[first] ?? COLOR_HEX.BLACK!, accent: COLOR_HEX[second] ?? COLOR_HEX.BLACK!, rgb };
}

/** RGB lighting from the lighting list, an LED field, the colour list or the name. */
function hasRgb(rec: Rec, name: string, c: Colors): boolean {
  if (rec.rgb === true) return true;
  const lights = strings(rec.lighting).map((l) => l.toUpperCase());
  if (lights.some((l) => l === 'RGB' || l === 'ARGB' || l === 'MULTICOLOR')) return true;
  const led = str(rec.led)?.toUpperCase();
  if (led && /RGB|MULTICOLOR/.test(led)) return true;
  return c.rgb || /\ba?rgb\b/i.test(name);
}

// ---------------------------------------------------------------- categories

function boardFromString(s: string | undefined): BoardFormFactor | undefined {
  if (!s) return undefined;
  const t = s.toUpperCase().replace(/[\s_-]+/g, '');
  if (/EATX|EEB|CEB|XLATX|HPTX|EXTENDED/.test(t)) return 'E-ATX';
  if (/MICROATX|MATX|UATX|FLEXATX|MICRO/.test(t)) return 'Micro ATX';
  if (/ITX|DTX/.test(t)) return 'Mini-ITX';
  if (/ATX/.test(t)) return 'ATX';
  return undefined;
}

const BOARD_RANK: Record<BoardFormFactor, number> = { 'E-ATX': 4, ATX: 3, 'Micro ATX': 2, 'Mini-ITX': 1 };

interface CaseShape {
  maxBoard: BoardFormFactor;
  w: number;
  h: number;
  d: number;
  gpu: number;
  shroud: boolean;
  /** wide and low (desktop, HTPC, test bench) rather than tall */
  flat: boolean;
}

/** Typical proportions for an OpenDB case type ("ATX Mid Tower", "Micro ATX Mini Tower", "HTPC" ...). */
function caseShape(type: string): CaseShape {
  const t = type.toLowerCase();
  const board = boardFromString(type) ?? (/htpc/.test(t) ? 'Micro ATX' : 'ATX');
  if (/test bench/.test(t)) {
    return board === 'Mini-ITX'
      ? { maxBoard: board, w: 250, h: 260, d: 300, gpu: 330, shroud: false, flat: true }
      : { maxBoard: board, w: 330, h: 360, d: 420, gpu: 450, shroud: false, flat: true };
  }
  if (/desktop|htpc/.test(t)) {
    return board === 'Mini-ITX'
      ? { maxBoard: board, w: 300, h: 120, d: 320, gpu: 200, shroud: false, flat: true }
      : { maxBoard: board, w: 430, h: 170, d: 420, gpu: 300, shroud: false, flat: true };
  }
  if (/full tower/.test(t))
    return { maxBoard: board === 'ATX' ? 'E-ATX' : board, w: 240, h: 560, d: 540, gpu: 420, shroud: true, flat: false };
  if (/slim/.test(t)) return { maxBoard: board, w: 110, h: 360, d: 330, gpu: 200, shroud: false, flat: false };
  if (board === 'Mini-ITX') return { maxBoard: board, w: 185, h: 330, d: 340, gpu: 320, shroud: false, flat: false };
  if (/mini tower/.test(t)) {
    return board === 'Micro ATX'
      ? { maxBoard: board, w: 205, h: 400, d: 390, gpu: 320, shroud: true, flat: false }
      : { maxBoard: board, w: 210, h: 420, d: 420, gpu: 330, shroud: true, flat: false };
  }
  if (board === 'Micro ATX') return { maxBoard: board, w: 215, h: 440, d: 420, gpu: 340, shroud: true, flat: false };
  return { maxBoard: board, w: 225, h: 480, d: 460, gpu: 380, shroud: true, flat: false };
}

/**
 * Width/height/depth from `dimensions_mm`, else from the free-text `dimensions`
 * ("413 x 217 x 453", "485*235*518", "564mm x 246mm x 568mm"), whose order varies between
 * records; so the axes are assigned by shape: a tower is narrowest across, a desktop lowest.
 */
function caseDimensions(rec: Rec, shape: CaseShape): { w: number; h: number; d: number } {
  const dm = obj(rec.dimensions_mm);
  const ok = (v: unknown) => num(v, 80, 1000);
  if (dm && ok(dm.width) && ok(dm.height) && ok(dm.depth)) {
    return { w: ok(dm.width)!, h: ok(dm.height)!, d: ok(dm.depth)! };
  }
  const text = str(rec.dimensions);
  const nums = text ? (text.match(/\d+(\.\d+)?/g) ?? []).map(Number) : [];
  if (nums.length === 3 && nums.every((n) => n >= 80 && n <= 1000)) {
    const sorted = [...nums].sort((a, b) => a - b);
    const [small, mid, large] = sorted as [number, number, number];
    return shape.flat ? { w: large, h: small, d: mid } : { w: small, h: large, d: mid };
  }
  return { w: shape.w, h: shape.h, d: shape.d };
}

function mapCase(rec: Rec, name: string): CaseSpecs {
  const type = str(rec.form_factor) ?? str(rec.type) ?? inferCaseType(name);
  const shape = caseShape(type);
  const supported = strings(rec.supported_motherboard_form_factors)
    .map(boardFromString)
    .filter((b): b is BoardFormFactor => b !== undefined);
  const maxBoard = supported.length
    ? supported.reduce((a, b) => (BOARD_RANK[b] > BOARD_RANK[a] ? b : a))
    : shape.maxBoard;
  const { w, h, d } = caseDimensions(rec, shape);
  const panelText = (str(rec.side_panel) ?? '').toLowerCase();
  const sidePanel: CaseSpecs['sidePanel'] = /glass|acrylic|window|transparent/.test(panelText)
    ? 'glass'
    : /mesh/.test(panelText)
      ? 'mesh'
      : panelText
        ? 'solid'
        : rec.has_transparent_side_panel === true
          ? 'glass'
          : 'solid';
  const c = colors(rec, name);
  // a card cannot be longer than the case is deep; keep the record's value when plausible
  const maxGpuLengthMm = Math.round(
    Math.min(num(rec.max_video_card_length, 100, 600) ?? shape.gpu, Math.max(150, d - 20)),
  );
  return {
    type,
    maxBoard,
    widthMm: Math.round(w),
    heightMm: Math.round(h),
    depthMm: Math.round(d),
    sidePanel,
    color: c.color,
    accentColor: c.accent,
    maxGpuLengthMm,
    psuShroud: shape.shroud,
    rgb: hasRgb(rec, name, c),
  };
}

function inferCaseType(name: string): string {
  if (/itx/i.test(name)) return 'Mini ITX Tower';
  if (/micro|matx|m-atx/i.test(name)) return 'Micro ATX Mini Tower';
  if (/full/i.test(name)) return 'ATX Full Tower';
  return 'ATX Mid Tower';
}

function mapMotherboard(rec: Rec, name: string): MotherboardSpecs {
  const formFactor = boardFromString(str(rec.form_factor)) ?? boardFromString(name) ?? 'ATX';
  const memory = obj(rec.memory);
  const defaultSlots = formFactor === 'Mini-ITX' ? 2 : 4;
  let x16 = 0;
  for (const slot of Array.isArray(rec.pcie_slots) ? rec.pcie_slots : []) {
    const s = obj(slot);
    if (s && num(s.lanes, 16, 16)) x16 += num(s.quantity, 0, 8) ?? 1;
  }
  const maxX16 = formFactor === 'Mini-ITX' ? 1 : formFactor === 'Micro ATX' ? 4 : 7;
  const m2 = Array.isArray(rec.m2_slots) ? rec.m2_slots.length : undefined;
  return {
    formFactor,
    socket: str(rec.socket) ?? 'Unknown',
    color: colors(rec, name).color,
    memorySlots: num(memory?.slots, 1, 16) ?? defaultSlots,
    pcieX16Slots: clamp(x16 || 1, 1, maxX16),
    m2Slots: clamp(m2 ?? (formFactor === 'Mini-ITX' ? 1 : 2), 0, 16),
  };
}

function brandOf(...texts: (string | undefined)[]): 'Intel' | 'AMD' | undefined {
  const t = texts.filter(Boolean).join(' ');
  if (/\bintel\b|\bcore\b|\bxeon\b|\bpentium\b|\bceleron\b/i.test(t)) return 'Intel';
  if (/\bamd\b|\bryzen\b|\bathlon\b|\bthreadripper\b|\bepyc\b|\bradeon\b/i.test(t)) return 'AMD';
  return undefined;
}

function mapCpu(rec: Rec, name: string): CpuSpecs {
  const meta = obj(rec.metadata);
  const cores = obj(rec.cores);
  const threads = num(cores?.threads, 1, 512);
  return {
    socket: str(rec.socket) ?? 'Unknown',
    brand: brandOf(str(meta?.manufacturer), name) ?? 'Other',
    cores: Math.round(
      num(cores?.total, 1, 256) ?? num(rec.core_count, 1, 256) ?? (threads ? Math.max(1, threads / 2) : 4),
    ),
  };
}

function mapCooler(rec: Rec, name: string): CoolerSpecs {
  const rad = num(rec.radiator_size, 100, 480);
  const nameRad = fromName(name, /\b(120|140|240|280|360|420)\s*(?:mm)?\b/i, 100, 480);
  // water_cooled is wrong on a few records ("... Air 53mm" marked true), so the name wins
  const liquid =
    rec.water_cooled === true
      ? !/\bair\b/i.test(name)
      : rec.water_cooled === false
        ? false
        : rad !== undefined || /\b(liquid|water|aio)\b|flow/i.test(name);
  const c = colors(rec, name);
  const rgb = hasRgb(rec, name, c);
  const recordFan = num(rec.fan_size, 40, 200);
  const fanless = rec.fanless === true;
  if (liquid) {
    // fan_size sometimes carries the radiator length (240, 360)
    const radiatorMm = snapRadiator(rad ?? num(rec.fan_size, 201, 480) ?? nameRad ?? 240);
    const fanSizeMm = recordFan ?? radiatorFanSize(radiatorMm);
    return {
      type: 'liquid',
      radiatorMm,
      // a tower's height: an AIO has none (its pump block is drawn at a fixed size)
      heightMm: 0,
      fanSizeMm,
      fanCount: fanless ? 0 : (num(rec.fan_quantity, 1, 4) ?? Math.max(1, Math.round(radiatorMm / fanSizeMm))),
      color: c.color,
      rgb,
    };
  }
  const fanSizeMm = recordFan ?? fromName(name, /\b(92|120|140)\s*(?:mm)?\b/, 40, 200) ?? 120;
  const lowProfile = /low[- ]?profile|\bL9|\bL12|\bAXP/i.test(name);
  return {
    type: 'air',
    radiatorMm: 0,
    heightMm: Math.round(num(rec.height, 20, 200) ?? (lowProfile ? 47 : 155)),
    fanSizeMm,
    fanCount: fanless ? 0 : (num(rec.fan_quantity, 1, 3) ?? (/\bdual\b|\btwin\b|\bD15\b|assassin/i.test(name) ? 2 : 1)),
    color: c.color,
    rgb,
  };
}

/** Fans on a card from "3 Fans", "1 Fan", "Blower", "Passive", "Hybrid", else name, else length. */
function gpuFans(rec: Rec, name: string, length: number | undefined): number {
  const cooling = str(rec.cooling)?.toLowerCase();
  if (cooling) {
    const n = num(cooling, 0, 4);
    if (n !== undefined && /fan/.test(cooling)) return n;
    if (/passive|water/.test(cooling)) return 0;
    if (/blower|hybrid/.test(cooling)) return 1;
  }
  if (/\b(triple|trio|3x|tri)\b/i.test(name)) return 3;
  if (/\b(dual|twin|2x)\b/i.test(name)) return 2;
  if (length === undefined) return 2;
  return length < 200 ? 1 : length < 270 ? 2 : 3;
}

/** Slot width: plausible slot counts, or millimetre thickness (44, 55.6) converted to slots. */
function gpuSlots(v: unknown, fans: number): number {
  const slots = num(v, 1, 5);
  if (slots !== undefined) return Math.round(slots * 2) / 2;
  const mm = num(v, 15, 120);
  if (mm !== undefined) return clamp(Math.round((mm / 20.32) * 2) / 2, 1, 5);
  return fans >= 3 ? 2.5 : 2;
}

function mapGpu(rec: Rec, name: string): GpuSpecs {
  const recordLength = num(rec.length, 100, 420);
  const fanCount = gpuFans(rec, name, recordLength);
  const lengthMm = Math.round(recordLength ?? [170, 175, 240, 300, 320][fanCount]!);
  const c = colors(rec, name);
  const maker = str(rec.chipset_manufacturer)?.toUpperCase();
  const chip = `${str(rec.chipset) ?? ''} ${name}`;
  const brand: GpuSpecs['brand'] =
    maker === 'NVIDIA' || /geforce|rtx|gtx|quadro/i.test(chip)
      ? 'NVIDIA'
      : maker === 'AMD' || /radeon/i.test(chip)
        ? 'AMD'
        : maker === 'INTEL' || /\barc\b/i.test(chip)
          ? 'Intel'
          : 'Other';
  return {
    lengthMm,
    slotWidth: gpuSlots(rec.total_slot_width ?? rec.slot_width, fanCount),
    fanCount,
    color: c.color,
    rgb: hasRgb(rec, name, c),
    brand,
  };
}

function mapRam(rec: Rec, name: string): RamSpecs {
  const modules = obj(rec.modules);
  const count = num(modules?.quantity, 1, 16) ?? fromName(name, /\((\d+)\s*x\s*\d+\s*GB\)/i, 1, 16) ?? 2;
  const per = num(modules?.capacity_gb, 1, 512);
  const capacityGb =
    num(rec.capacity, 1, 4096) ?? (per ? per * count : undefined) ?? fromName(name, /(\d+)\s*GB/i, 1, 4096) ?? 16;
  const c = colors(rec, name);
  const rgb = hasRgb(rec, name, c);
  // no record carries a height: derive it from the look (bare PCB, low profile, RGB bar)
  const heightMm =
    rec.heat_spreader === false || /so-?dimm/i.test(str(rec.form_factor) ?? '')
      ? 31
      : /\bLPX\b|low[- ]?profile|\bSF\b/i.test(name)
        ? 34
        : /dominator|trident z|royal|\bZ5\b/i.test(name)
          ? 46
          : rgb
            ? 44
            : 40;
  return { modules: Math.min(Math.round(count), 8), capacityGb: Math.round(capacityGb), heightMm, color: c.color, rgb };
}

function mapStorage(rec: Rec, name: string): StorageSpecs {
  const type = (str(rec.type) ?? str(rec.storage_type) ?? '').toUpperCase();
  const kind: StorageSpecs['kind'] = /HDD|SSHD/.test(type) || (!type && /\brpm\b|hdd/i.test(name)) ? 'HDD' : 'SSD';
  const ff = (str(rec.form_factor) ?? '').toUpperCase();
  const formFactor: StorageSpecs['formFactor'] = /M\.?2|MSATA|PCIE/.test(ff)
    ? 'M.2'
    : /3\.5/.test(ff)
      ? '3.5'
      : /2\.5/.test(ff)
        ? '2.5'
        : kind === 'HDD'
          ? '3.5'
          : /m\.2|nvme/i.test(name)
            ? 'M.2'
            : '2.5';
  const tb = fromName(name, /(\d+(?:\.\d+)?)\s*TB/i, 0.1, 100);
  const capacityGb = Math.round(
    num(rec.capacity, 1, 100_000) ?? (tb ? tb * 1000 : undefined) ?? fromName(name, /(\d+)\s*GB/i, 1, 100_000) ?? 1000,
  );
  return { formFactor, kind, capacityGb };
}

function mapPsu(rec: Rec, name: string): PsuSpecs {
  const ff = `${str(rec.form_factor) ?? ''}`.toUpperCase();
  const formFactor: PsuSpecs['formFactor'] = /SFX-?L/.test(ff)
    ? 'SFX-L'
    : /SFX|ITX/.test(ff)
      ? 'SFX'
      : /TFX|FLEX/.test(ff)
        ? 'TFX'
        : /ATX|EPS/.test(ff)
          ? 'ATX'
          : /\bSFX-?L\b/i.test(name)
            ? 'SFX-L'
            : /\bSFX\b/i.test(name)
              ? 'SFX'
              : 'ATX';
  return {
    formFactor,
    lengthMm: Math.round(num(rec.length, 60, 300) ?? PSU_LENGTH_MM[formFactor]),
    wattage: Math.round(num(rec.wattage, 50, 3000) ?? fromName(name, /(\d{3,4})\s*W\b/i, 50, 3000) ?? 550),
    color: colors(rec, name, true).color,
  };
}

function mapCaseFan(rec: Rec, name: string): CaseFanSpecs {
  let size = num(rec.size, 20, 500) ?? fromName(name, /(\d{2,3})\s*mm/i, 20, 500) ?? 120;
  let quantity =
    num(rec.quantity, 1, 20) ??
    fromName(name, /(?:pack of|x)\s*(\d{1,2})\b/i, 1, 20) ??
    fromName(name, /\b(\d{1,2})[- ]?(?:pack|fans?)\b/i, 1, 20) ??
    1;
  // a "360 mm" or "420 mm" fan is three fans in one frame
  if (size > 230) {
    const unit = radiatorFanSize(size);
    quantity = Math.max(quantity, Math.round(size / unit));
    size = unit;
  }
  const c = colors(rec, name);
  return { sizeMm: Math.round(size), quantity: Math.round(quantity), color: c.color, rgb: hasRgb(rec, name, c) };
}

const MAPPERS: { [C in Category]: (rec: Rec, name: string) => SpecsByCategory[C] } = {
  PCCase: mapCase,
  Motherboard: mapMotherboard,
  CPU: mapCpu,
  CPUCooler: mapCooler,
  GPU: mapGpu,
  RAM: mapRam,
  Storage: mapStorage,
  PSU: mapPsu,
  CaseFan: mapCaseFan,
};

/** Display name of a record: `metadata.name`, else a top-level `name`. */
export function openDbName(record: unknown): string | undefined {
  const rec = obj(record);
  if (!rec) return undefined;
  const name = str(obj(rec.metadata)?.name) ?? str(rec.name);
  return name?.replace(/\s+/g, ' ').slice(0, 300);
}

/** Maps one parsed OpenDB record of a category to `{ name, specs }`, or says why it cannot. */
export function mapOpenDbRecord<C extends Category>(category: C, record: unknown): OpenDbMapResult<C> {
  const rec = obj(record);
  if (!rec) return { ok: false, reason: 'record is not a JSON object' };
  const name = openDbName(rec);
  if (!name) return { ok: false, reason: 'record has no metadata.name' };
  const mapped = (MAPPERS[category] as (rec: Rec, name: string) => SpecsByCategory[C])(rec, name);
  // values the stage would replace (out of its ranges) are replaced here already
  const specs = normalizeSpecs(category, { specs: mapped }, []);
  return { ok: true, name, specs };
}
