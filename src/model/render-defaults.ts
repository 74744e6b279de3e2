/**
 * The one place for render option values, defaults and clamps. No zod here: the stage bundle
 * (farm/src) imports this file, and the schemas (render-options.ts) are built from it, so the
 * API, the CLI, the worker and the stage agree on every default and range.
 */

export const SCENES = [
  'sunset',
  'dawn',
  'night',
  'warehouse',
  'forest',
  'apartment',
  'studio',
  'studio_v2',
  'city',
  'park',
  'lobby',
] as const;
export type Scene = (typeof SCENES)[number];
export const PROFILES = ['cinematic', 'flat', 'fast'] as const;
export type Profile = (typeof PROFILES)[number];
export const FORMATS = ['video', 'sprite'] as const;
export type Format = (typeof FORMATS)[number];
/** Sprite frames per turn: standard 72, high 144 (video is always VIDEO_FRAMES). */
export const FRAME_QUALITIES = ['standard', 'high'] as const;
export type FrameQuality = (typeof FRAME_QUALITIES)[number];

/** Requested width and height, in pixels (integers; outside is a 400 / usage error). */
export const MIN_SIZE = 256;
export const MAX_SIZE = 8192;
export const VIDEO_FRAMES = 120;
export const VIDEO_FPS = 30;
/**
 * Frames per independently encoded video segment (1 s), the longest: each starts with a
 * keyframe from a fresh encoder, so its bytes depend only on its frames and a render split at
 * segment boundaries (farm chunks) concatenates to the same stream as a whole one. Big frames
 * get shorter segments (videoSegmentFrames in chunk-unit.ts).
 */
export const VIDEO_SEGMENT_FRAMES = VIDEO_FPS;
export const DEFAULT_VIDEO_SIZE = { width: 1280, height: 720 } as const;
export const DEFAULT_SPRITE_SIZE = { width: 512, height: 512 } as const;
export const DEFAULT_SCENE: Scene = 'studio';
export const DEFAULT_PROFILE: Profile = 'cinematic';
export const DEFAULT_FORMAT: Format = 'video';

/** An inclusive range with the value used when a field is left out. */
export interface Range {
  min: number;
  max: number;
  default: number;
}

/** Camera fields are clamped into these ranges, never rejected (docs/design-decisions.md, "Render options"). */
export const CAMERA_OFFSET_X: Range = { min: -0.3, max: 0.3, default: 0 };
export const CAMERA_ZOOM: Range = { min: 0.5, max: 2, default: 1 };

export interface GridSettings {
  cellThickness: number;
  sectionThickness: number;
  color: string;
  fadeDistance: number;
  renderOrder: number;
}

export const DEFAULT_GRID: GridSettings = {
  cellThickness: 0.8,
  sectionThickness: 1.4,
  color: '#6f6f6f',
  fadeDistance: 20,
  renderOrder: -1,
};

/**
 * Numeric grid settings: values outside `accept` are rejected; accepted values are clamped
 * into [min, max]. fadeDistance accepts 0 but draws at least 0.5 grid units (5 cm): a shorter
 * fade leaves no visible grid and a zero one divides by zero in the shader.
 */
export const GRID_LIMITS = {
  cellThickness: { min: 0, max: 10 },
  sectionThickness: { min: 0, max: 10 },
  fadeDistance: { min: 0.5, max: 1000, accept: { min: 0, max: 1000 } },
  renderOrder: { min: -100, max: 100 },
} as const;

/** `v` within [lo, hi]. */
export function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
