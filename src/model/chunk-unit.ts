/**
 * The smallest piece a render may be split into for the farm: chunk boundaries are multiples
 * of it, so every chunk holds whole video segments (each encoded on its own) or whole sprite
 * sheet rows (each composed and read back whole by the page).
 */
import type { ResolvedRenderOptions } from './render-options.js';
import { VIDEO_SEGMENT_FRAMES } from './render-defaults.js';

/** Frames in one chunk unit: a video segment, or one sprite sheet row. */
export function chunkUnitFrames(options: ResolvedRenderOptions): number {
  if (options.format === 'video') return VIDEO_SEGMENT_FRAMES;
  if (!options.sprite) throw new Error('sprite options without a sprite layout');
  return options.sprite.columns;
}
