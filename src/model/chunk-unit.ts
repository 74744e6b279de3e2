/**
 * The smallest piece a render may be split into for the farm: chunk boundaries are multiples
 * of it, so every chunk holds whole video segments (each encoded on its own) or whole sprite
 * sheet rows (each composed and read back whole by the page).
 *
 * A video segment is 1 s (30 frames) unless a segment of such frames would take a worker more
 * than SEGMENT_TARGET_S (5 s above 1080p's area): then it is the longest divisor of the 120
 * frames that fits, so a chunk
 * of a huge frame still ends within ~10 s and lets another customer's job in (measured: a
 * 2048x2048 cinematic 30-frame chunk held a worker ~40 s). Shorter segments mean more keyframes
 * (bigger files at a fixed bitrate), so only big frames get them. The length shapes the video's
 * bytes, so it is a pure function of the request with fixed speeds (typical of a CPU worker),
 * never of a worker's measured speed: every worker and a whole render agree on it.
 */
import type { ResolvedRenderOptions } from './render-options.js';
import { VIDEO_SEGMENT_FRAMES, type Profile } from './render-defaults.js';

/** Segment lengths (divisors of the 120 video frames), longest first. */
export const VIDEO_SEGMENT_CHOICES = [VIDEO_SEGMENT_FRAMES, 24, 20, 15, 12, 10, 8, 6, 5, 4] as const;
/** A segment should take a typical worker at most this long (frames up to 1080p's area)... */
export const SEGMENT_TARGET_S = 10;
/**
 * ...and frames bigger than 1080p at most this long: those renders are the ones that hold
 * workers for minutes, so their chunks must end soon enough to let other customers in (the
 * fairness goal of bench:farm); up to 1080p a segment stays >= 0.5 s for quality.
 */
export const LARGE_FRAME_SEGMENT_TARGET_S = 5;
/** 1920x1080 */
export const LARGE_FRAME_MP = 2.1;
/** Typical seconds per megapixel-frame (Mesa llvmpipe on this 2-core machine: cinematic 0.24-0.32). */
export const TYPICAL_S_PER_MP: Record<Profile, number> = { cinematic: 0.3, flat: 0.2, fast: 0.12 };

/** Frames per independently encoded video segment for these options. */
export function videoSegmentFrames(o: Pick<ResolvedRenderOptions, 'width' | 'height' | 'profile'>): number {
  const mp = (o.width * o.height) / 1e6;
  const perFrame = mp * TYPICAL_S_PER_MP[o.profile];
  const target = mp > LARGE_FRAME_MP ? LARGE_FRAME_SEGMENT_TARGET_S : SEGMENT_TARGET_S;
  for (const n of VIDEO_SEGMENT_CHOICES) if (n * perFrame <= target) return n;
  return VIDEO_SEGMENT_CHOICES[VIDEO_SEGMENT_CHOICES.length - 1]!;
}

/** Frames in one chunk unit: a video segment, or one sprite sheet row. */
export function chunkUnitFrames(options: ResolvedRenderOptions): number {
  if (options.format === 'video') return videoSegmentFrames(options);
  if (!options.sprite) throw new Error('sprite options without a sprite layout');
  return options.sprite.columns;
}
