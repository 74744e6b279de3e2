/**
 * Sprite sheet geometry (pure): the layout of a sheet, where frame i goes and how big the sheet is.
 * Frames fill rows left to right, top to bottom: frame i at column i % columns, row i / columns.
 */
import { z } from 'zod';
import type { FrameQuality } from './render-defaults.js';

/** WebP's hard limit on either side of an image. */
export const WEBP_MAX = 16383;
export const SPRITE_COLUMNS = 12;
/** Frames in one turn of a sprite. */
export const SPRITE_FRAMES: Record<FrameQuality, number> = { standard: 72, high: 144 };

/** A sheet's layout, as the job object reports it (`sprite`). */
export const spriteLayoutSchema = z.object({
  columns: z.number().int(),
  rows: z.number().int(),
  frames: z.number().int(),
  frame_width: z.number().int(),
  frame_height: z.number().int(),
});
export type SpriteLayout = z.output<typeof spriteLayoutSchema>;

/**
 * Largest frame size with the requested aspect ratio whose sheet stays within WebP's limit.
 * 1920x1080 with 12 columns and 6 rows gives 1365x768.
 */
export function fitSpriteFrame(width: number, height: number, rows: number): { width: number; height: number } {
  const scale = Math.min(1, Math.floor(WEBP_MAX / SPRITE_COLUMNS) / width, Math.floor(WEBP_MAX / rows) / height);
  if (scale >= 1) return { width, height };
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The layout of a full turn at the requested frame size (shrunk to fit WebP when needed). */
export function spriteLayout(width: number, height: number, frameQuality: FrameQuality): SpriteLayout {
  const frames = SPRITE_FRAMES[frameQuality];
  const rows = Math.ceil(frames / SPRITE_COLUMNS);
  const fit = fitSpriteFrame(width, height, rows);
  return { columns: SPRITE_COLUMNS, rows, frames, frame_width: fit.width, frame_height: fit.height };
}

/** Pixel size of the whole sheet. */
export function sheetSize(layout: SpriteLayout): { width: number; height: number } {
  return { width: layout.columns * layout.frame_width, height: layout.rows * layout.frame_height };
}

/** Top-left corner of frame `index` on the sheet. */
export function cellOrigin(layout: SpriteLayout, index: number): { left: number; top: number } {
  if (!Number.isInteger(index) || index < 0 || index >= layout.frames)
    throw new RangeError(`frame ${index} outside 0..${layout.frames - 1}`);
  return {
    left: (index % layout.columns) * layout.frame_width,
    top: Math.floor(index / layout.columns) * layout.frame_height,
  };
}

/**
 * The layout for a sheet of `frames` frames (fewer than a full turn only in tests): 12 columns,
 * or fewer when there are fewer frames.
 */
export function layoutFor(frames: number, frameWidth: number, frameHeight: number): SpriteLayout {
  const columns = Math.min(SPRITE_COLUMNS, frames);
  const layout = {
    columns,
    rows: Math.ceil(frames / columns),
    frames,
    frame_width: frameWidth,
    frame_height: frameHeight,
  };
  const size = sheetSize(layout);
  if (size.width > WEBP_MAX || size.height > WEBP_MAX) {
    throw new RangeError(`sprite sheet ${size.width}x${size.height} exceeds WebP's ${WEBP_MAX}px limit`);
  }
  return layout;
}
