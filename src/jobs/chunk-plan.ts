/**
 * Splitting a render into frame-range chunks (pure). A chunk is sized to take about
 * `targetS` seconds on the slowest live worker, from that worker's own measured seconds per
 * megapixel-frame for the profile and frame-size class (worker-speed.ts) or, before any live
 * worker measured that class, the cost model's conservative figure. Chunk borders fall on whole
 * units (a video's keyframe segment, a sprite sheet's row: src/model/chunk-unit.ts), so chunks
 * assemble without re-encoding.
 *
 * Whether to split (docs/design-decisions.md, "Chunked renders": a 640x360 fast video split into 4 chunks took 14.1 s wall and
 * 24.2 s of worker time against 11.1 s whole). A split is made for one of two reasons:
 *
 * - speed: with 2 or more live worker processes, the split's estimated wall time beats the
 *   whole render's, overheads included:
 *     whole = RENDER_OVERHEAD_S + frames x s/frame
 *     split = ceil(chunks / workers) x (CHUNK_OVERHEAD_S + longest chunk's frames x s/frame) + ASSEMBLE_S
 *   (workers are processes, not slots: a worker's slots share its machine's cores);
 * - fairness: a whole render would hold one worker longer than FAIR_SPLIT_CHUNKS chunks'
 *   worth; split, other customers' jobs get in between its chunks (fair-priority.ts). One worker
 *   rendering consecutive chunks keeps the scene loaded, so this costs little (bench:farm: 1080p
 *   cinematic, 1 worker, 8 chunks: 1.01x of whole).
 *
 * Anything else stays one task.
 */
import type { ResolvedRenderOptions } from '../model/render-options.js';
import { FRAME_BASE_S, PROFILE_S_PER_MP, RENDER_OVERHEAD_S, SCENE_WEIGHT } from './cost-model.js';

/** Frames [start, end) of the turn, rendered by chunk `idx`. */
export interface ChunkRange {
  idx: number;
  start: number;
  end: number;
}

/**
 * A chunk's own cost beyond its frames: a page load and scene build on its worker, its pieces'
 * upload, the queue's pick-up. From the fault run in docs/design-decisions.md: 4 chunks of a render whose
 * frames take 9.9 s used 24.2 s of worker time, ~3.6 s a chunk.
 */
export const CHUNK_OVERHEAD_S = 3.5;
/** The assemble task: pieces fetched, joined without re-encoding, checked (ffprobe, loop seam), stored (same run: ~2 s). */
export const ASSEMBLE_S = 2;
/** On any number of workers, a render worth more than this many chunks is split for fairness. */
export const FAIR_SPLIT_CHUNKS = 3;

/** Estimated seconds one frame takes at `sPerMp` seconds per megapixel (the profile's, measured or modelled). */
export function secondsPerFrame(
  o: Pick<ResolvedRenderOptions, 'width' | 'height' | 'profile' | 'scene'>,
  sPerMp?: number | null,
): number {
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
  /** live worker processes that would render the chunks */
  workers: number;
}

/** The target-sized split of a render and its estimated wall times, split and whole (see the file comment). */
export interface SplitEstimate {
  /** the target-sized ranges (one when the render is within one unit or one chunk) */
  ranges: ChunkRange[];
  chunks: number;
  wholeS: number;
  splitS: number;
}

/** The chunks a render would be split into, and what the split and the whole are estimated to take. */
export function estimateSplit(p: PlanInput): SplitEstimate {
  const ranges = sizedRanges(p);
  const wholeS = RENDER_OVERHEAD_S + Math.max(0, p.frames) * p.secondsPerFrame;
  const longest = Math.max(...ranges.map((r) => r.end - r.start));
  const rounds = Math.ceil(ranges.length / Math.max(1, Math.floor(p.workers)));
  const splitS = rounds * (CHUNK_OVERHEAD_S + longest * p.secondsPerFrame) + ASSEMBLE_S;
  return { ranges, chunks: ranges.length, wholeS, splitS };
}

/** The chunks of a render: one range [0, frames) when splitting does not pay (see the file comment). */
export function planChunks(p: PlanInput): ChunkRange[] {
  const frames = Math.max(0, Math.floor(p.frames));
  const whole: ChunkRange[] = [{ idx: 0, start: 0, end: frames }];
  if (!(p.targetS > 0) || !(p.secondsPerFrame > 0)) return whole;
  const e = estimateSplit(p);
  if (e.chunks <= 1) return whole;
  const faster = p.workers >= 2 && e.splitS < e.wholeS;
  const fairer = frames * p.secondsPerFrame > p.targetS * FAIR_SPLIT_CHUNKS;
  return faster || fairer ? e.ranges : whole;
}

/** Ranges of about `targetS` each on whole units, spread evenly. */
function sizedRanges(p: PlanInput): ChunkRange[] {
  const frames = Math.max(0, Math.floor(p.frames));
  const unit = Math.max(1, Math.floor(p.unit));
  const whole: ChunkRange[] = [{ idx: 0, start: 0, end: frames }];
  if (!(p.targetS > 0) || !(p.secondsPerFrame > 0) || frames <= unit) return whole;
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
