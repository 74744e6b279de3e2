/**
 * The contract between Node and the capture helpers of the stage page (farm/src/capture/): what
 * one capture run, one batch of stills and the other helpers take and return. Shared by both
 * sides: the page's helpers are typed by PageHelpers, Node calls them through callStage
 * (src/render/call-stage.ts). JSON only, as for stage-contract.ts.
 */
import type { StageBuild, StageOptions } from './stage-contract.js';

/** H.264 encoding in the page (WebCodecs), chunks POSTed in order under `${token}-h264`. */
export interface PageH264 {
  /** a codec string the page reported as supported (h264CodecExpression) */
  codec: string;
  width: number;
  height: number;
  fps: number;
  /** bits per second (Chromium's software H.264 has no quantizer mode) */
  bitrate: number;
  /** frames per segment (VIDEO_SEGMENT_FRAMES): each is encoded by a fresh VideoEncoder */
  segmentFrames: number;
  /** hand the canvas itself to the encoder (VideoFrame(canvas)) instead of our readPixels buffer */
  fromCanvas?: boolean;
}

/** Parameters of one capture run in the page. */
export interface PageRunRequest {
  /** the stage server route token: frames go to /frames/<token>/<index> */
  token: string;
  /** frame indices to render, in order */
  indices: number[];
  /**
   * per-frame capture: sprite-sheet rows of `columns` frames as raw RGBA (POSTed per row under
   * the row number), an encoded image per frame, or nothing (video-only runs)
   */
  frames:
    | null
    | { type: 'sheet'; columns: number }
    | { type: 'image/jpeg' | 'image/png' | 'image/webp'; quality: number };
  h264: PageH264 | null;
  /** indices whose raw RGBA is also POSTed under `${token}-still` (the lossless hero frame) */
  stills: number[];
  /** frames captured but not yet acknowledged */
  window: number;
}

/** Parameters of a toBlob-only capture (stills, tests). */
export interface PageCaptureRequest {
  token: string;
  indices: number[];
  /** toBlob mime type: image/jpeg for video and sprites, image/png when alpha or a lossless still is needed */
  type: 'image/jpeg' | 'image/png' | 'image/webp';
  quality: number;
  window: number;
}

/** What one `__rfRun` did: frames rendered, H.264 chunks encoded. */
export interface PageRunResult {
  frames: number;
  chunks: number;
}

/** One batch of stills for `__rfStillsBatch` (src/render/batch-stills.ts): `capture` is a run request without token and indices. */
export interface PageBatchRequest {
  token: string;
  builds: readonly StageBuild[];
  options: StageOptions;
  capture: Omit<PageRunRequest, 'token' | 'indices'>;
}

/** A build of a batch that did not render: its place in the batch and why. */
export interface PageBatchFailure {
  index: number;
  error: string;
}

/**
 * The helpers the stage page installs on `window` next to `renderStage` (farm/src/capture/),
 * as callStage (src/render/call-stage.ts) calls them.
 */
export interface PageHelpers {
  /** runs one capture */
  __rfRun(req: PageRunRequest): Promise<PageRunResult>;
  /** the first H.264 codec string of `codecs` this browser encodes at this size, or null */
  __rfH264Codec(width: number, height: number, fps: number, bitrate: number, codecs: string[]): Promise<string | null>;
  /** makes a running capture stop at its next frame */
  __rfAbortRun(reason: string): void;
  /** ms per frame of `frames` frames back to back after a finished warm-up frame (the doctor's probe) */
  __rfTimeFrames(frames: number): number;
  /** whether the stage's WebGL context is lost (its GPU process died): browser-pool.ts falls back to the CPU */
  __rfContextLost(): boolean;
  /** the hero still of each build; resolves to the builds that failed */
  __rfStillsBatch(req: PageBatchRequest): Promise<PageBatchFailure[]>;
  /** makes a running batch (and its capture) stop */
  __rfAbortBatch(reason: string): void;
}

/** A toBlob-only capture (lossless stills, tests) as a run request for `__rfRun`. */
export function captureRequest(req: PageCaptureRequest): PageRunRequest {
  return {
    token: req.token,
    indices: req.indices,
    frames: { type: req.type, quality: req.quality },
    h264: null,
    stills: [],
    window: req.window,
  };
}
