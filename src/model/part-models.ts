/**
 * Part models: artists' glTF models that replace a part's procedural model in renders.
 * The shared vocabulary of the Node side (validation, preparation, the catalog) and the stage
 * (placement, materials): which categories take a model, the authoring frame, the size a part
 * is expected to have, and the naming conventions for RGB materials and case anchors.
 * Zod-free: the stage bundles this file.
 *
 * The authoring frame (docs/part-models.md): metres, +Y up, the front facing +Z, the part as it
 * sits installed in a standard tower whose window side is -X and whose motherboard tray is on +X.
 * So a GPU is authored lying as it hangs in its slot (length along Z, bracket at -Z, fans facing
 * -Y, the board edge on +X); a case fan blows along +Z; an air cooler stands out of the board
 * toward -X.
 */
import { boardOutlineMm, GPU_CARD_HEIGHT_MM, SLOT_PITCH_MM, type SpecsByCategory } from './part.js';

/** Categories a model may be given for (CPU and Storage are hidden or tiny in every shot). */
export const MODEL_CATEGORIES = ['PCCase', 'Motherboard', 'CPUCooler', 'GPU', 'RAM', 'PSU', 'CaseFan'] as const;
export type ModelCategory = (typeof MODEL_CATEGORIES)[number];

export function isModelCategory(c: unknown): c is ModelCategory {
  return typeof c === 'string' && (MODEL_CATEGORIES as readonly string[]).includes(c);
}

/** The sha256 (lower-case hex) of a prepared GLB: its content address. */
export const MODEL_SHA256 = /^[0-9a-f]{64}$/;

/**
 * The box a part fills in the authoring frame, in millimetres [x, y, z], from its normalised
 * specs: what a model's bounding box is checked against (a factor of 2 on any axis is refused
 * unless fitted). Approximate on purpose: close enough to catch a model in centimetres, inches
 * or lying on the wrong axis, never so tight that a real product's proportions fail.
 */
export function expectedModelSizeMm<C extends ModelCategory>(
  category: C,
  specs: SpecsByCategory[C],
): [number, number, number] {
  switch (category) {
    case 'PCCase': {
      const s = specs as SpecsByCategory['PCCase'];
      return [s.widthMm, s.heightMm, s.depthMm];
    }
    case 'Motherboard': {
      const o = boardOutlineMm((specs as SpecsByCategory['Motherboard']).formFactor);
      return [35, o.height, o.width];
    }
    case 'CPUCooler': {
      const s = specs as SpecsByCategory['CPUCooler'];
      // a liquid cooler's model is its pump head; the radiator and tubes stay procedural
      if (s.type === 'liquid') return [45, 70, 70];
      return [s.heightMm, s.fanSizeMm + 5, Math.max(60, 30 + 27 * s.fanCount)];
    }
    case 'GPU': {
      const s = specs as SpecsByCategory['GPU'];
      return [GPU_CARD_HEIGHT_MM, Math.max(1, s.slotWidth) * SLOT_PITCH_MM, s.lengthMm];
    }
    case 'RAM': {
      const s = specs as SpecsByCategory['RAM'];
      return [s.heightMm, 7, 133];
    }
    case 'PSU': {
      const s = specs as SpecsByCategory['PSU'];
      return s.formFactor === 'SFX' || s.formFactor === 'SFX-L' ? [125, 63.5, s.lengthMm] : [150, 86, s.lengthMm];
    }
    case 'CaseFan': {
      const s = specs as SpecsByCategory['CaseFan'];
      return [s.sizeMm, s.sizeMm, 25];
    }
    default:
      return [100, 100, 100];
  }
}

/**
 * A material is an RGB material (takes the build's saved RGB colour, glows, gets bloom) when its
 * name has `RGB`, `ARGB` or `RGBW` as a word (`RGB_ring`, `fan-rgb`, `RGB.001`, `ARGB_strip`,
 * `led_rgbw`: the words PC-hardware artists use), or when its `extras` carry `"rgb": true`.
 * `RGBA` is not one: it names a colour format, not lighting.
 */
export function isRgbMaterial(name: string | undefined, extras: unknown): boolean {
  if (extras && typeof extras === 'object' && (extras as { rgb?: unknown }).rgb === true) return true;
  return typeof name === 'string' && /(^|[^a-z0-9])a?rgbw?([^a-z0-9]|$)/i.test(name);
}

/**
 * A case model without anchors holds the build inside its bounding box less this wall thickness
 * (mm; the procedural shell's panel), unless its root node's `extras.wall_mm` says otherwise.
 */
export const CASE_MODEL_WALL_MM = 5;

/**
 * Anchors a case model may carry: empty nodes named so (Blender: an Empty with that name).
 * Their position (and for mounts, their +Z as the airflow direction into the case) places the
 * procedural parts; without them the layout comes from the case's bounding box.
 * Fan and radiator mounts are numbered: `fan_front_1`, `fan_top_2`, `radiator_top`.
 */
export const CASE_ANCHORS = {
  /** the motherboard tray: the board's rear-top corner on its face (the board's I/O corner) */
  motherboardTray: 'anchor_motherboard_tray',
  /** the PSU bay: the PSU's centre */
  psuBay: 'anchor_psu_bay',
  /** the top x16 slot line: where the first GPU's board edge and bracket meet */
  gpuSlot: 'anchor_gpu_slot',
  /** fan mounts, `anchor_fan_<panel>_<n>`: a fan's centre, its +Z pointing into the case */
  fanPrefix: 'anchor_fan_',
  /** radiator mounts, `anchor_radiator_<panel>`: the radiator's centre */
  radiatorPrefix: 'anchor_radiator_',
} as const;
