/**
 * Splitting a render into frame-range chunks (pure). A chunk is sized to take about
 * `targetS` seconds on the slowest live worker, from that worker's own measured seconds per
 * megapixel-frame (worker-speed.ts) or, before any worker measured this profile, the cost
 * model's conservative figure. Chunk borders fall on whole units (a video's keyframe segment,
 * a sprite sheet's row: src/model/chunk-unit.ts), so chunks assemble without re-encoding.
 *
 * A render that fits in about 1.5 chunks stays one task: splitting it would add a page load and
 * an assemble step for no gain (a 256 px sprite takes ~2 s in all).
 */
import type { ResolvedRenderOptions } from '../model/render-options.js';
import { FRAME_BASE_S, PROFILE_S_PER_MP, SCENE_WEIGHT } from './cost-model.js';

/** Frames [start, end) of the turn, rendered by chunk `idx`. */
export interface ChunkRange {
  idx: number;
  start: number;
  end: number;
}

/** Below this many target chunks' worth of work, a render is not split. */
export const SPLIT_ABOVE_CHUNKS = 1.5;

/** Estimated seconds one frame takes at `sPerMp` seconds per megapixel (the profile's, measured or modelled). */
export function secondsPerFrame(o: Pick<ResolvedRenderOptions, 'width' | 'height' | 'profile' | 'scene'>, sPerMp?: number | null): number {
  const mp = (o.width * o.height) / 1e6;
  return FRAME_BASE_S + mp * (sPerMp ?? PROFILE_S_PER_MP[o.profile]) * (SCENE_WEIGHT[o.scene] ?? 1);
}

export interface PlanInput {
  frames: number;
  /** chunk borders are multiples of this (chunkUnitFrames) */
  unit: number;
  /** estimated seconds per frame on the slowest live worker */
  secondsPerFrame: number;
  /** wanted seconds per chunk; 0 never splits */
  targetS: number;
}

/** The chunks of a render: one range [0, frames) when it is not worth splitting. */
export function planChunks(p: PlanInput): ChunkRange[] {
  const frames = Math.max(0, Math.floor(p.frames));
  const unit = Math.max(1, Math.floor(p.unit));
  const whole: ChunkRange[] = [{ idx: 0, start: 0, end: frames }];
  if (!(p.targetS > 0) || !(p.secondsPerFrame > 0) || frames <= unit) return whole;
  if (frames * p.secondsPerFrame <= p.targetS * SPLIT_ABOVE_CHUNKS) return whole;
  const units = Math.ceil(frames / unit);
  // units per chunk: the nearest to the target, at least one
  const perChunk = Math.max(1, Math.round(p.targetS / (p.secondsPerFrame * unit)));
  const count = Math.min(units, Math.ceil(units / perChunk));
  if (count <= 1) return whole;
  // spread units evenly (the first chunks take the remainder), so no chunk is a runt
  const base = Math.floor(units / count);
  const extra = units % count;
  const out: ChunkRange[] = [];
  let u = 0;
  for (let idx = 0; idx < count; idx++) {
    const n = base + (idx < extra ? 1 : 0);
    out.push({ idx, start: u * unit, end: Math.min(frames, (u + n) * unit) });
    u += n;
  }
  return out;
}
