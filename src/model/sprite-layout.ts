/**
 * Sprite sheet geometry (pure): where frame i goes and how big the sheet is.
 * Frames fill rows left to right, top to bottom: frame i at column i % columns, row i / columns.
 */
import type { SpriteLayout } from './render-options.js';
import { SPRITE_COLUMNS, WEBP_MAX } from './render-options.js';

/** Pixel size of the whole sheet. */
export function sheetSize(layout: SpriteLayout): { width: number; height: number } {
  return { width: layout.columns * layout.frame_width, height: layout.rows * layout.frame_height };
}

/** Top-left corner of frame `index` on the sheet. */
export function cellOrigin(layout: SpriteLayout, index: number): { left: number; top: number } {
  if (!Number.isInteger(index) || index < 0 || index >= layout.frames) throw new RangeError(`frame ${index} outside 0..${layout.frames - 1}`);
  return { left: (index % layout.columns) * layout.frame_width, top: Math.floor(index / layout.columns) * layout.frame_height };
}

/**
 * The layout for a sheet of `frames` frames (fewer than a full turn only in tests): 12 columns,
 * or fewer when there are fewer frames.
 */
export function layoutFor(frames: number, frameWidth: number, frameHeight: number): SpriteLayout {
  const columns = Math.min(SPRITE_COLUMNS, frames);
  const layout = { columns, rows: Math.ceil(frames / columns), frames, frame_width: frameWidth, frame_height: frameHeight };
  const size = sheetSize(layout);
  if (size.width > WEBP_MAX || size.height > WEBP_MAX) {
    throw new RangeError(`sprite sheet ${size.width}x${size.height} exceeds WebP's ${WEBP_MAX}px limit`);
  }
  return layout;
}
