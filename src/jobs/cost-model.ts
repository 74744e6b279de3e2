/**
 * The cost model: a render's estimated cost in seconds of one worker's time (one render at a
 * time on the calibration machine, so it reads as CPU-seconds of a 1-render worker), from its
 * resolved options alone. Pure: admission (admission.ts) and fair priorities (fair-priority.ts)
 * use it before anything renders.
 *
 *   cost = RENDER_OVERHEAD_S + frames x (FRAME_BASE_S + megapixels x PROFILE_S_PER_MP x sceneWeight)
 *
 * Calibrated on the 2-core development machine (GL backend egl: Mesa on the CPU; `render-farm
 * render --share-code DEMO-GLASS --json`, one render at a time); the table of measured against
 * modelled seconds per frame: docs/operating.md, "Admission, the cost model and fair scheduling".
 *
 * Cinematic seconds per megapixel fall from ~0.45 at small frames to ~0.23 at 720p (fixed costs
 * of the effect stack), then rise again when memory is short (the 8192x8192 render, docs/operating.md:
 * about 3 frames per 100 s, 0.5 s/MP); 0.5 is kept as the conservative bound, so mid-size
 * cinematic renders are overestimated up to ~2x on an idle machine. Outside its frames
 * a run spends about 1.2 s (a 72-frame 256 px fast sprite: 2.4 s in all, 1.2 s of frames).
 * Absolute times swing 2-3x with load on a shared machine; the estimate is a ranking and a
 * bound, not a promise. No scene was measured apart from studio: every
 * scene weighs 1 (the table is kept so a heavier scene can be weighted when one is added).
 */
import type { Profile, Scene } from '../model/render-defaults.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';

/** page load, warm-up, encoder start and finish, upload: per render */
export const RENDER_OVERHEAD_S = 1.2;
/** per frame whatever its size: capture round trip, encoder feed */
export const FRAME_BASE_S = 0.008;
/** seconds per megapixel of one frame, by profile (the effect stack is most of the cost) */
export const PROFILE_S_PER_MP: Record<Profile, number> = { cinematic: 0.5, flat: 0.25, fast: 0.15 };
/** relative cost of a scene preset (all procedural; measured equal within noise) */
export const SCENE_WEIGHT: Partial<Record<Scene, number>> = {};

export interface CostEstimate {
  /** estimated seconds of one worker */
  seconds: number;
  frames: number;
  /** megapixels of one rendered frame (sprite frames after shrinking to WebP's limit) */
  frameMegapixels: number;
}

/** Estimates a render from its resolved options (what the cache key hashes). */
export function estimateRenderCost(
  o: Pick<ResolvedRenderOptions, 'width' | 'height' | 'frames' | 'profile' | 'scene'>,
): CostEstimate {
  const frameMegapixels = (o.width * o.height) / 1e6;
  const perFrame = FRAME_BASE_S + frameMegapixels * PROFILE_S_PER_MP[o.profile] * (SCENE_WEIGHT[o.scene] ?? 1);
  const seconds = RENDER_OVERHEAD_S + o.frames * perFrame;
  return {
    seconds: Math.round(seconds * 10) / 10,
    frames: o.frames,
    frameMegapixels: Math.round(frameMegapixels * 100) / 100,
  };
}
