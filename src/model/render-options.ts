/**
 * Render options of spec section 2.4: the zod schema that validates requests (and feeds the
 * OpenAPI document), with the cross-field rules inside it, and `resolveRenderOptions`, which
 * fills every default so that equal requests normalise to equal objects (the cache key is a
 * hash of the resolved form). Values, defaults and clamps come from render-defaults.ts.
 */
import { z } from 'zod';
import { cssColorToHex } from './css-color.js';
import {
  CAMERA_OFFSET_X,
  CAMERA_ZOOM,
  clamp,
  DEFAULT_FORMAT,
  DEFAULT_GRID,
  DEFAULT_PROFILE,
  DEFAULT_SCENE,
  DEFAULT_SPRITE_SIZE,
  DEFAULT_VIDEO_SIZE,
  FORMATS,
  FRAME_QUALITIES,
  GRID_LIMITS,
  MAX_SIZE,
  MIN_SIZE,
  PROFILES,
  SCENES,
  VIDEO_FPS,
  VIDEO_FRAMES,
  type Scene,
} from './render-defaults.js';
import { spriteLayout, spriteLayoutSchema } from './sprite-layout.js';

const g = GRID_LIMITS;
export const gridSettingsSchema = z
  .object({
    cellThickness: z.number().min(g.cellThickness.min).max(g.cellThickness.max).optional(),
    sectionThickness: z.number().min(g.sectionThickness.min).max(g.sectionThickness.max).optional(),
    // normalised here, before the cache key: #fff, white and #ffffff are one render
    color: z
      .string()
      .max(100)
      .transform((v, ctx) => {
        const hex = cssColorToHex(v);
        if (hex) return hex;
        ctx.addIssue({
          code: 'custom',
          message: `expected a CSS colour (#6f6f6f, #fff, #6f6f6fcc, rgb(111 111 111), hsl(0 0% 44%), a colour name), got ${JSON.stringify(v)}`,
        });
        return z.NEVER;
      })
      .meta({
        description:
          'line colour: any CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb()/rgba(), hsl()/hsla(), or a CSS colour name. Normalised to #rrggbb (lower case) before the cache key, so #fff, white and #ffffff are the same render; an alpha is accepted and ignored (grid lines are opaque). Default #6f6f6f.',
      })
      .optional(),
    fadeDistance: z
      .number()
      .min(g.fadeDistance.accept.min)
      .max(g.fadeDistance.accept.max)
      .transform((v) => clamp(v, g.fadeDistance.min, g.fadeDistance.max))
      .optional(),
    renderOrder: z.number().int().min(g.renderOrder.min).max(g.renderOrder.max).optional(),
  })
  .strict();

const clamped = (r: { min: number; max: number }) => z.number().transform((v) => clamp(v, r.min, r.max));
const size = z.number().int().min(MIN_SIZE).max(MAX_SIZE);

/** Render options as a client sends them (all optional), field by field. */
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
  cameraOffsetX: clamped(CAMERA_OFFSET_X).optional(),
  cameraZoom: clamped(CAMERA_ZOOM).optional(),
  gridSettings: gridSettingsSchema.optional(),
  frameQuality: z.enum(FRAME_QUALITIES).optional(),
};

type OptionFields = { width?: number; height?: number; winterMode?: boolean; springMode?: boolean };

/**
 * Cross-field rules, shared by every schema that holds render options (the API bodies, the
 * CLI flags, pregen's variants): width with height, winter without spring.
 */
export function renderOptionsRules(o: OptionFields, ctx: z.RefinementCtx): void {
  if ((o.width === undefined) !== (o.height === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [o.width === undefined ? 'width' : 'height'],
      message: 'width and height must be sent together',
    });
  }
  if (o.winterMode && o.springMode) {
    ctx.addIssue({ code: 'custom', path: ['springMode'], message: 'winterMode and springMode are mutually exclusive' });
  }
}

/** The render options of one request, every rule checked. */
export const renderOptionsSchema = z.object(renderOptionsShape).strict().superRefine(renderOptionsRules);
export type RenderOptionsInput = z.input<typeof renderOptionsSchema>;
export type RenderOptions = z.output<typeof renderOptionsSchema>;

/**
 * Every option with its default resolved: what the cache key hashes, what `renders.request`
 * stores and the worker parses back, and (a subset) what the stage draws. Width/height are the
 * size actually rendered (sprite frames shrink to fit WebP's limit).
 */
export const resolvedRenderOptionsSchema = z.object({
  format: z.enum(FORMATS),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  profile: z.enum(PROFILES),
  scene: z.enum(SCENES),
  showBackground: z.boolean(),
  showGrid: z.boolean(),
  winterMode: z.boolean(),
  springMode: z.boolean(),
  cameraOffsetX: z.number(),
  cameraZoom: z.number(),
  gridSettings: z.object({
    cellThickness: z.number(),
    sectionThickness: z.number(),
    color: z.string(),
    fadeDistance: z.number(),
    renderOrder: z.number(),
  }),
  frameQuality: z.enum(FRAME_QUALITIES),
  /** frames in one full turn */
  frames: z.number().int().positive(),
  fps: z.number().positive(),
  sprite: spriteLayoutSchema.nullable(),
});
export type ResolvedRenderOptions = z.output<typeof resolvedRenderOptionsSchema>;

export function resolveRenderOptions(o: RenderOptions): ResolvedRenderOptions {
  const format = o.format ?? DEFAULT_FORMAT;
  const profile = o.profile ?? DEFAULT_PROFILE;
  const winterMode = o.winterMode ?? false;
  const springMode = o.springMode ?? false;
  const seasonalScene: Scene | undefined = springMode ? 'dawn' : winterMode ? 'studio_v2' : undefined;
  const seasonalBackground: boolean | undefined = springMode ? true : winterMode ? false : undefined;
  const dflt = format === 'video' ? DEFAULT_VIDEO_SIZE : DEFAULT_SPRITE_SIZE;
  const width = o.width ?? dflt.width;
  const height = o.height ?? dflt.height;
  const frameQuality = o.frameQuality ?? 'standard';
  const sprite = format === 'sprite' ? spriteLayout(width, height, frameQuality) : null;
  return {
    format,
    width: sprite ? sprite.frame_width : width,
    height: sprite ? sprite.frame_height : height,
    profile,
    scene: o.scene ?? seasonalScene ?? DEFAULT_SCENE,
    showBackground: o.showBackground ?? seasonalBackground ?? true,
    showGrid: o.showGrid ?? profile === 'cinematic',
    winterMode,
    springMode,
    cameraOffsetX: o.cameraOffsetX ?? CAMERA_OFFSET_X.default,
    cameraZoom: o.cameraZoom ?? CAMERA_ZOOM.default,
    gridSettings: { ...DEFAULT_GRID, ...o.gridSettings },
    // frameQuality only changes sprites; fixing it for video keeps equal videos on one cache key
    frameQuality: format === 'sprite' ? frameQuality : 'standard',
    frames: sprite ? sprite.frames : VIDEO_FRAMES,
    fps: VIDEO_FPS,
    sprite,
  };
}
