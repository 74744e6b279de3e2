/**
 * Render options of spec section 2.4: the zod schema that validates requests (and feeds the
 * OpenAPI document) and `resolveRenderOptions`, which fills every default so that equal
 * requests normalise to equal objects (the cache key is a hash of the resolved form).
 */
import { z } from 'zod';

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

export const MIN_SIZE = 256;
export const MAX_SIZE = 8192;
/** WebP's hard limit on either side of an image. */
export const WEBP_MAX = 16383;
export const SPRITE_COLUMNS = 12;
export const VIDEO_FRAMES = 120;
export const VIDEO_FPS = 30;
export const DEFAULT_VIDEO_SIZE = { width: 1280, height: 720 } as const;
export const DEFAULT_SPRITE_SIZE = { width: 512, height: 512 } as const;

export const gridSettingsSchema = z
  .object({
    cellThickness: z.number().min(0).max(10).optional(),
    sectionThickness: z.number().min(0).max(10).optional(),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour like #6f6f6f')
      .optional(),
    fadeDistance: z.number().min(0).max(1000).optional(),
    renderOrder: z.number().int().min(-100).max(100).optional(),
  })
  .strict();

const clamp = (lo: number, hi: number) => (v: number) => Math.min(hi, Math.max(lo, v));
const size = z.number().int().min(MIN_SIZE).max(MAX_SIZE);

/** Render options as a client sends them (all optional). */
export const renderOptionsShape = {
  format: z.enum(FORMATS).optional(),
  width: size.optional(),
  height: size.optional(),
  profile: z.enum(PROFILES).optional(),
  scene: z.enum(SCENES).optional(),
  showBackground: z.boolean().optional(),
  showGrid: z.boolean().optional(),
  winterMode: z.boolean().optional(),
  springMode: z.boolean().optional(),
  cameraOffsetX: z.number().transform(clamp(-0.3, 0.3)).optional(),
  cameraZoom: z.number().transform(clamp(0.5, 2.0)).optional(),
  gridSettings: gridSettingsSchema.optional(),
  frameQuality: z.enum(['standard', 'high']).optional(),
};

export const renderOptionsSchema = z.object(renderOptionsShape).strict();
export type RenderOptionsInput = z.input<typeof renderOptionsSchema>;
export type RenderOptions = z.output<typeof renderOptionsSchema>;

/** Cross-field rules shared by every endpoint and the CLI; returns a message or null. */
export function renderOptionsProblem(o: RenderOptions): { field: string; message: string } | null {
  if ((o.width === undefined) !== (o.height === undefined)) {
    return { field: o.width === undefined ? 'width' : 'height', message: 'width and height must be sent together' };
  }
  if (o.winterMode && o.springMode) {
    return { field: 'springMode', message: 'winterMode and springMode are mutually exclusive' };
  }
  return null;
}

export interface GridSettings {
  cellThickness: number;
  sectionThickness: number;
  color: string;
  fadeDistance: number;
  renderOrder: number;
}

export interface SpriteLayout {
  columns: number;
  rows: number;
  frames: number;
  frame_width: number;
  frame_height: number;
}

/** Every option with its default resolved. Width/height are the size actually rendered. */
export interface ResolvedRenderOptions {
  format: Format;
  width: number;
  height: number;
  /** what the client asked for, when sprite fitting shrank it */
  requestedWidth: number;
  requestedHeight: number;
  profile: Profile;
  scene: Scene;
  showBackground: boolean;
  showGrid: boolean;
  winterMode: boolean;
  springMode: boolean;
  cameraOffsetX: number;
  cameraZoom: number;
  gridSettings: GridSettings;
  frameQuality: 'standard' | 'high';
  /** frames in one full turn */
  frames: number;
  fps: number;
  sprite: SpriteLayout | null;
}

export const DEFAULT_GRID: GridSettings = {
  cellThickness: 0.8,
  sectionThickness: 1.4,
  color: '#6f6f6f',
  fadeDistance: 20,
  renderOrder: -1,
};

/**
 * Largest frame size with the requested aspect ratio whose sheet stays within WebP's limit.
 * 1920x1080 with 12 columns and 6 rows gives 1365x768.
 */
export function fitSpriteFrame(width: number, height: number, rows: number): { width: number; height: number } {
  const scale = Math.min(1, Math.floor(WEBP_MAX / SPRITE_COLUMNS) / width, Math.floor(WEBP_MAX / rows) / height);
  if (scale >= 1) return { width, height };
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export function spriteLayout(width: number, height: number, frameQuality: 'standard' | 'high'): SpriteLayout {
  const frames = frameQuality === 'high' ? 144 : 72;
  const rows = Math.ceil(frames / SPRITE_COLUMNS);
  const fit = fitSpriteFrame(width, height, rows);
  return { columns: SPRITE_COLUMNS, rows, frames, frame_width: fit.width, frame_height: fit.height };
}

export function resolveRenderOptions(o: RenderOptions): ResolvedRenderOptions {
  const format = o.format ?? 'video';
  const profile = o.profile ?? 'cinematic';
  const winterMode = o.winterMode ?? false;
  const springMode = o.springMode ?? false;
  const seasonalScene: Scene | undefined = springMode ? 'dawn' : winterMode ? 'studio_v2' : undefined;
  const seasonalBackground: boolean | undefined = springMode ? true : winterMode ? false : undefined;
  const dflt = format === 'video' ? DEFAULT_VIDEO_SIZE : DEFAULT_SPRITE_SIZE;
  const requestedWidth = o.width ?? dflt.width;
  const requestedHeight = o.height ?? dflt.height;
  const frameQuality = o.frameQuality ?? 'standard';
  const sprite = format === 'sprite' ? spriteLayout(requestedWidth, requestedHeight, frameQuality) : null;
  return {
    format,
    width: sprite ? sprite.frame_width : requestedWidth,
    height: sprite ? sprite.frame_height : requestedHeight,
    requestedWidth,
    requestedHeight,
    profile,
    scene: o.scene ?? seasonalScene ?? 'studio',
    showBackground: o.showBackground ?? seasonalBackground ?? true,
    showGrid: o.showGrid ?? profile === 'cinematic',
    winterMode,
    springMode,
    cameraOffsetX: o.cameraOffsetX ?? 0,
    cameraZoom: o.cameraZoom ?? 1,
    gridSettings: { ...DEFAULT_GRID, ...o.gridSettings },
    // frameQuality only changes sprites; fixing it for video keeps equal videos on one cache key
    frameQuality: format === 'sprite' ? frameQuality : 'standard',
    frames: sprite ? sprite.frames : VIDEO_FRAMES,
    fps: VIDEO_FPS,
    sprite,
  };
}
