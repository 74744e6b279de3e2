/**
 * The contract between the Node side (src/render) and the stage page running in Chromium.
 * The page installs `window.renderStage` (a StageApi) once its bundle has loaded.
 * Everything crossing this boundary is JSON: Node builds the options with toStageOptions(),
 * the page reads them with parseStageOptions(), once. No zod here (the page bundles this file;
 * test/farm/bundle.test.ts): the values, defaults and clamps come from render-defaults.ts.
 */
import type { Category, Part } from './part.js';
import type { InteractiveState } from './interactive-state.js';
import type { ResolvedRenderOptions } from './render-options.js';
import {
  CAMERA_OFFSET_X,
  CAMERA_ZOOM,
  clamp,
  GRID_LIMITS,
  MAX_SIZE,
  PROFILES,
  SCENES,
  type GridSettings,
} from './render-defaults.js';

/** The parts of one build, resolved from the catalog, plus its saved interactive state. */
export interface StageBuild {
  parts: Partial<Record<Category, Part[]>>;
  state: InteractiveState | null;
  /**
   * Part ID -> sha256 of its prepared GLB (part-models.ts), for the parts that have an artist's
   * model. The page fetches `/models/<sha256>.glb` from the stage server; absent or empty: every
   * part is procedural.
   */
  models?: Record<string, string>;
}

/** What the stage needs of the resolved render options. */
export type StageOptions = Pick<
  ResolvedRenderOptions,
  | 'width'
  | 'height'
  | 'profile'
  | 'scene'
  | 'showBackground'
  | 'showGrid'
  | 'gridSettings'
  | 'winterMode'
  | 'springMode'
  | 'cameraOffsetX'
  | 'cameraZoom'
  | 'frames'
> & {
  /** transparent background (part thumbnails); default false */
  transparent?: boolean;
  /** tests only: model details to leave out, to show what each adds; default none */
  omit?: StageDetail[];
  /**
   * false: load() skips the warm-up (shader compile ahead and two counted frames, no drawCalls
   * in the info); the first renderFrame compiles what it needs. Batched stills render one
   * frame per load, so the warm-up would triple their cost. Default true.
   */
  warm?: boolean;
};

/** Model details a test may leave out (StageOptions.omit). */
export const STAGE_DETAILS = ['cables', 'aio-tubes'] as const;
export type StageDetail = (typeof STAGE_DETAILS)[number];

/** Stage options with the stage's own switches filled in: what the page draws from. */
export type ParsedStageOptions = Required<StageOptions>;

/** The stage's own switches, besides the render options; what StageOptions documents. */
export interface StageSwitches {
  transparent?: boolean;
  omit?: StageDetail[];
  warm?: boolean;
}

/**
 * The stage's part of resolved render options plus its own switches: what Node passes to
 * renderStage.load(). Every field is filled, so the page needs no defaults of its own.
 */
export function toStageOptions(o: ResolvedRenderOptions, switches: StageSwitches = {}): ParsedStageOptions {
  return {
    width: o.width,
    height: o.height,
    profile: o.profile,
    scene: o.scene,
    showBackground: o.showBackground,
    showGrid: o.showGrid,
    gridSettings: o.gridSettings,
    winterMode: o.winterMode,
    springMode: o.springMode,
    cameraOffsetX: o.cameraOffsetX,
    cameraZoom: o.cameraZoom,
    frames: o.frames,
    transparent: switches.transparent ?? false,
    omit: switches.omit ?? [],
    warm: switches.warm ?? true,
  };
}

/** Stage options the page cannot draw (a field missing, of the wrong type, or out of range). */
export class StageOptionsError extends Error {
  constructor(readonly problems: string[]) {
    super(`stage options: ${problems.join('; ')}`);
    this.name = 'StageOptionsError';
  }
}

/**
 * The page's one check of its input (JSON from Node, so typed only by this). Render options
 * must be present and resolved (toStageOptions); values are refused or clamped as
 * render-defaults.ts and resolvedRenderOptionsSchema say: sizes are positive integers up to
 * MAX_SIZE, profile and scene from their lists, camera fields clamped, grid numbers refused
 * outside their accepted range and clamped into the drawn one, the grid colour #rrggbb, winter
 * and spring not both. The stage switches default to transparent false, omit none, warm true.
 * Throws a StageOptionsError naming every bad field.
 */
export function parseStageOptions(input: unknown): ParsedStageOptions {
  const problems: string[] = [];
  const o = isRecord(input) ? input : {};
  if (!isRecord(input)) problems.push(`expected an object, got ${show(input)}`);
  const refuse = (field: string, want: string, value: unknown) =>
    problems.push(`${field} must be ${want}, got ${show(value)}`);
  const int = (field: string, value: unknown, min: number, max: number): number => {
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    refuse(field, `an integer in [${min}, ${max}]`, value);
    return min;
  };
  const flag = (field: string, value: unknown): boolean => {
    if (typeof value === 'boolean') return value;
    refuse(field, 'true or false', value);
    return false;
  };
  const number = (field: string, value: unknown, range: { min: number; max: number }, accept = range): number => {
    if (typeof value === 'number' && Number.isFinite(value) && value >= accept.min && value <= accept.max)
      return clamp(value, range.min, range.max);
    refuse(field, accept.min === -Infinity ? 'a finite number' : `a number in [${accept.min}, ${accept.max}]`, value);
    return range.min;
  };
  const oneOf = <T extends string>(field: string, value: unknown, allowed: readonly T[]): T => {
    if ((allowed as readonly unknown[]).includes(value)) return value as T;
    refuse(field, `one of ${allowed.join(', ')}`, value);
    return allowed[0]!;
  };
  const anyNumber = { min: -Infinity, max: Infinity };
  const grid = isRecord(o.gridSettings) ? o.gridSettings : {};
  if (!isRecord(o.gridSettings)) refuse('gridSettings', 'an object', o.gridSettings);
  const L = GRID_LIMITS;
  const gridSettings: GridSettings = {
    cellThickness: number('gridSettings.cellThickness', grid.cellThickness, L.cellThickness),
    sectionThickness: number('gridSettings.sectionThickness', grid.sectionThickness, L.sectionThickness),
    color:
      typeof grid.color === 'string' && /^#[0-9a-f]{6}$/.test(grid.color)
        ? grid.color
        : (refuse('gridSettings.color', 'a #rrggbb colour (lower case)', grid.color), '#000000'),
    fadeDistance: number('gridSettings.fadeDistance', grid.fadeDistance, L.fadeDistance, L.fadeDistance.accept),
    renderOrder: int('gridSettings.renderOrder', grid.renderOrder, L.renderOrder.min, L.renderOrder.max),
  };
  const omit =
    o.omit === undefined
      ? []
      : Array.isArray(o.omit)
        ? o.omit.map((d, i) => oneOf(`omit[${i}]`, d, STAGE_DETAILS))
        : (refuse('omit', 'a list', o.omit), []);
  const parsed: ParsedStageOptions = {
    width: int('width', o.width, 1, MAX_SIZE),
    height: int('height', o.height, 1, MAX_SIZE),
    profile: oneOf('profile', o.profile, PROFILES),
    scene: oneOf('scene', o.scene, SCENES),
    showBackground: flag('showBackground', o.showBackground),
    showGrid: flag('showGrid', o.showGrid),
    gridSettings,
    winterMode: flag('winterMode', o.winterMode),
    springMode: flag('springMode', o.springMode),
    // clamped, never refused (render-defaults.ts); anything but a finite number is refused
    cameraOffsetX: clamp(number('cameraOffsetX', o.cameraOffsetX, anyNumber), CAMERA_OFFSET_X.min, CAMERA_OFFSET_X.max),
    cameraZoom: clamp(number('cameraZoom', o.cameraZoom, anyNumber), CAMERA_ZOOM.min, CAMERA_ZOOM.max),
    frames: int('frames', o.frames, 1, Number.MAX_SAFE_INTEGER),
    transparent: o.transparent === undefined ? false : flag('transparent', o.transparent),
    omit,
    warm: o.warm === undefined ? true : flag('warm', o.warm),
  };
  if (parsed.winterMode && parsed.springMode) problems.push('winterMode and springMode are mutually exclusive');
  if (problems.length > 0) throw new StageOptionsError(problems);
  return parsed;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function show(v: unknown): string {
  const s = v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v));
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

export interface StageInfo {
  /** triangles in the scene, for benchmarks */
  triangles: number;
  /** draw calls of one whole frame (every pass: shadow, mirror, glow, main, post), for benchmarks */
  drawCalls?: number;
  /** non-fatal problems: odd data replaced by defaults, slots the case cannot hold ... */
  warnings: string[];
  /** the frame index of the hero angle (used for screenshots) */
  heroFrame: number;
  /**
   * The page's part-model library after load(): models kept parsed, and GLB parses since the page
   * started (each sha256 is parsed once while it stays in the library; tests check this).
   */
  models?: {
    kept: number;
    parses: number;
    /** part-model triangles as parsed, and as drawn at this frame size (farm/src/models/model-lod.ts) */
    triangles: { before: number; after: number };
  };
}

export interface GlInfo {
  vendor: string;
  renderer: string;
  webgl2: boolean;
  maxTextureSize: number;
}

/**
 * The passes of a frame besides the main one, for per-pass timing (bench:render): the key
 * light's shadow map, the floor mirror (its pass and blur), the bloom mask and blurs, FXAA.
 */
export const STAGE_PASSES = ['shadow', 'mirror', 'bloom', 'fxaa'] as const;
export type StagePass = (typeof STAGE_PASSES)[number];

export interface StageApi {
  /** WebGL vendor/renderer strings (the GL self-test). Throws when WebGL is unavailable. */
  glInfo(): GlInfo;
  /** Builds the scene for a build, sizes the canvas to options.width x options.height. */
  load(build: StageBuild, options: StageOptions): Promise<StageInfo>;
  /**
   * The info of the loaded scene when it was loaded from exactly this build and these options
   * (frames render the same whatever was rendered before), else null: lets consecutive chunks of
   * one render on a worker skip the scene build (~1-2 s each).
   */
  loaded(build: StageBuild, options: StageOptions): StageInfo | null;
  /**
   * Poses the scene at frame `index` of `options.frames` (turn angle index*360/frames) and renders it. Deterministic.
   * `skip` leaves passes out (bench:render's per-pass costs only: the frame is then incomplete).
   */
  renderFrame(index: number, skip?: readonly StagePass[]): void;
  /** The canvas the frames are drawn on (for capture with toBlob / WebCodecs). */
  canvas(): HTMLCanvasElement;
  /** Frees the scene's GPU resources. */
  dispose(): void;
}

declare global {
  interface Window {
    renderStage?: StageApi;
  }
}
