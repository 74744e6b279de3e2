/**
 * The turn: the frame loop every render and every farm chunk runs (render-build.ts,
 * render-chunk.ts). Frames are rendered and captured in the page and streamed to the consumers
 * as they arrive (the page renders frame i+1 while Node handles frame i); nothing holds every frame.
 * Video: H.264 encoded in the page by WebCodecs and only remuxed by ffmpeg, or, where the
 * browser cannot (no VideoEncoder, no H.264, a failure mid-way), JPEG frames through x264.
 * Either way in independent segments of VIDEO_SEGMENT_FRAMES (a fresh encoder each), so a
 * farm chunk (renderChunk) of whole segments yields exactly the bytes of those frames in the
 * whole render, and chunks concatenate (encode/assemble.ts) to the same MP4.
 * Sprites: rows of frames composed in the page, sent raw and copied into the sheet, one WebP
 * encode at the end.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { toStageOptions, type StageBuild, type StageInfo } from '../model/stage-contract.js';
import { h264Bitrate, h264Codecs } from '../encode/h264-config.js';
import { SegmentedX264Encoder, type H264Sink, type VideoEncoder } from '../encode/video-encoder.js';
import { videoSegmentFrames } from '../model/chunk-unit.js';
import { ensureDir } from '../ensure-dir.js';
import type { GlBackendName } from './chromium-args.js';
import type { BrowserPool, RenderSession } from './browser-pool.js';
import { FrameSequencer } from './frame-sequencer.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';
import type { SpriteLayout } from '../model/sprite-layout.js';
import type { PageH264, PageRunRequest } from '../model/capture-contract.js';
import { callStage } from './call-stage.js';
import type { ModelSource } from './model-source.js';

export interface RenderProgress {
  stage: 'load' | 'render' | 'encode' | 'done';
  frame: number;
  total: number;
  /** frames captured per second so far */
  fps: number;
}

/**
 * How frames reach the video encoder on each GL backend, whichever measured faster there. On the
 * CPU backends our readPixels into a buffer (farm/src/capture/read-pixels.ts: 720p fast 87 CPU ms a frame against
 * 145 for VideoFrame(canvas), llvmpipe). On a GPU the canvas itself: the GPU process converts it
 * (an H200, 2026-11-27, bench/device kit: 720p cinematic 8.9 -> 6.4 ms a frame, 1080p 17.9 -> 12.9).
 */
export function videoFramesFor(backend: GlBackendName): 'pixels' | 'canvas' {
  return backend === 'gpu' ? 'canvas' : 'pixels';
}

/** What a turn needs: the shared part of a whole render's request (render-build.ts) and a chunk's (render-chunk.ts). */
export interface TurnRequest {
  pool: BrowserPool;
  ffmpegPath: string;
  build: StageBuild;
  options: ResolvedRenderOptions;
  outDir: string;
  signal?: AbortSignal;
  onProgress?: (p: RenderProgress) => void;
  /** transparent background (part thumbnails): frames keep alpha, sprites keep it */
  transparent?: boolean;
  /** 'x264' skips WebCodecs (tests, comparisons); 'auto' (default) uses it where the browser can. */
  videoEncoder?: 'auto' | 'x264';
  /**
   * How a frame reaches WebCodecs; default per backend (videoFramesFor). 'pixels' reads it into a
   * buffer first (readPixels), 'canvas' hands the canvas itself over (VideoFrame(canvas)).
   */
  videoFrames?: 'pixels' | 'canvas';
  /** part models for this render (model-source.ts withOverrides), in front of the engine's source */
  models?: ModelSource;
}

/** JPEG 0.95 intermediates for the x264 fallback: cheapest to encode in the page and decode in ffmpeg, visually lossless. */
const FRAME_QUALITY = 0.95;
/** Frames in flight between page and Node: uploads and Node's work overlap the next renders. */
const IN_FLIGHT = 3;

/** How the MP4 was encoded: WebCodecs H.264 in the page (muxed by ffmpeg), or JPEG frames through x264. */
export type VideoPath = 'webcodecs' | 'x264';

/** Runs `fn` with the stage server serving `models` (when given), then puts the pool's source back. */
export async function withModelSource<T>(
  session: RenderSession,
  models: ModelSource | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  if (!models) return fn();
  const previous = session.server.setModelSource(models);
  try {
    return await fn();
  } finally {
    session.server.setModelSource(previous);
  }
}

/** The H.264 codec string the page's WebCodecs encodes at this size, or null (use x264). */
async function pageH264(session: RenderSession, cfg: Omit<PageH264, 'codec'>): Promise<string | null> {
  const codecs = h264Codecs(cfg.width, cfg.height, cfg.fps);
  if (codecs.length === 0) return null;
  return (await callStage(session.page, '__rfH264Codec', cfg.width, cfg.height, cfg.fps, cfg.bitrate, codecs)) ?? null;
}

/** A WebCodecs failure in the page (worth retrying with x264), as opposed to any other error. */
function isWebCodecsFailure(err: unknown): boolean {
  return err instanceof Error && /webcodecs:/.test(err.message);
}

/** What one turn produces and feeds, for a whole render or a chunk. */
export interface TurnPlan<S extends SheetTarget = SheetTarget> {
  indices: number[];
  transparent: boolean;
  /** a fresh raw-H.264 sink per pass (a failed WebCodecs pass is redone with x264); null: no video */
  videoSink: ((videoSize: { width: number; height: number }) => H264Sink) | null;
  /** a fresh sheet target per pass; null: no sprite */
  sheet: (() => S) | null;
  /** read the raw hero frame during the turn when it is one of `indices` */
  still: boolean;
  /** keep using the page's scene when it was loaded from this very build and options (chunks) */
  reuseStage?: boolean;
}

export interface TurnResult<S extends SheetTarget = SheetTarget> {
  info: StageInfo;
  done: PassResult<S>;
  videoPath: VideoPath | null;
  videoSize: { width: number; height: number };
  /** frames of the turn (plan.indices) */
  frames: number;
  /** performance.now() marks: turn started, stage loaded, first frame asked for, last frame in */
  started: number;
  loaded: number;
  renderStart: number;
  rendered: number;
}

/** Where sheet rows (or, transparent, single encoded frames) go: the sheet writer or a chunk's rows. */
export interface SheetTarget {
  readonly layout: SpriteLayout;
  addRow(row: number, rgba: Uint8Array): void;
  add(index: number, encoded: Buffer): Promise<void>;
}

/** Per-request state of a render or a chunk: temporary files and the cancel hook. */
interface Scratch {
  token: string;
  temps: string[];
  tempFor(name: string): string;
  live: { encoder: { kill(): void } | null };
}

/** Loads the stage and runs the turn (with the WebCodecs -> x264 redo); the caller writes the files. */
export async function runTurn<S extends SheetTarget>(
  session: RenderSession,
  req: TurnRequest,
  scratch: Scratch,
  plan: TurnPlan<S>,
): Promise<TurnResult<S>> {
  const started = performance.now();
  const { page } = session;
  const o = req.options;
  req.signal?.throwIfAborted();
  await ensureDir(req.outDir, 'render output directory');
  req.onProgress?.({ stage: 'load', frame: 0, total: 0, fps: 0 });
  const options = toStageOptions(o, { transparent: plan.transparent });
  // consecutive chunks of one render on this worker: the scene is already built (frames do not
  // depend on what was rendered before), saving the ~1-2 s scene build and warm-up per chunk
  const info: StageInfo =
    (plan.reuseStage ? await callStage(page, 'renderStage.loaded', req.build, options) : null) ??
    (await callStage(page, 'renderStage.load', req.build, options));
  const loaded = performance.now();

  // H.264 in yuv420p needs even dimensions
  const videoSize = { width: o.width - (o.width % 2), height: o.height - (o.height % 2) };
  let h264: PageH264 | null = null;
  if (plan.videoSink && req.videoEncoder !== 'x264') {
    const cfg = {
      ...videoSize,
      fps: o.fps,
      bitrate: h264Bitrate(videoSize.width, videoSize.height, o.fps),
      segmentFrames: videoSegmentFrames(o),
    };
    const codec = await pageH264(session, cfg);
    if (codec)
      h264 = {
        ...cfg,
        codec,
        ...((req.videoFrames ?? videoFramesFor(session.backend)) === 'canvas' ? { fromCanvas: true } : {}),
      };
  }
  const heroFrame = plan.still && plan.indices.includes(info.heroFrame) ? info.heroFrame : null;

  const renderStart = performance.now();
  let passes = 0;
  const pass = (videoPath: VideoPath | null) =>
    capturePass(session, req, {
      // a fresh route per pass: late uploads of a failed pass must not reach the next one
      token: `${scratch.token}p${passes++}`,
      indices: plan.indices,
      transparent: plan.transparent,
      videoSize,
      video:
        videoPath && plan.videoSink
          ? { sink: plan.videoSink(videoSize), h264: videoPath === 'webcodecs' ? h264 : null }
          : null,
      sheet: plan.sheet ? plan.sheet() : null,
      heroFrame,
      live: scratch.live,
      renderStart,
    });
  let videoPath: VideoPath | null = plan.videoSink ? (h264 ? 'webcodecs' : 'x264') : null;
  let done: PassResult<S> = { sheet: null, still: null };
  try {
    // a still alone needs no turn: it is rendered by itself afterwards
    if (videoPath || plan.sheet) done = await pass(videoPath);
  } catch (err) {
    // e.g. an encoder that passed isConfigSupported and then failed: do it again with x264
    if (videoPath !== 'webcodecs' || !isWebCodecsFailure(err) || req.signal?.aborted) throw err;
    videoPath = 'x264';
    done = await pass(videoPath);
  }
  const rendered = performance.now();
  const total = plan.indices.length;
  req.onProgress?.({
    stage: 'encode',
    frame: total,
    total,
    fps: total / Math.max(1e-3, (rendered - renderStart) / 1000),
  });
  return { info, done, videoPath, videoSize, frames: total, started, loaded, renderStart, rendered };
}

/**
 * Runs `body` with temporary files and cancel wiring; cleans up whatever happens. The scene is
 * disposed afterwards, unless `keepStage` and the body succeeded (the next chunk may reuse it).
 */
export async function withScratch<T>(
  session: RenderSession,
  req: TurnRequest,
  body: (scratch: Scratch) => Promise<T>,
  keepStage = false,
): Promise<T> {
  let ok = false;
  const token = randomBytes(9).toString('base64url');
  const temps: string[] = [];
  const scratch: Scratch = {
    token,
    temps,
    tempFor: (name) => {
      const file = path.join(req.outDir, `.${name}.${token}.partial`);
      temps.push(file);
      return file;
    },
    live: { encoder: null },
  };
  const onAbort = () => {
    scratch.live.encoder?.kill();
    void callStage(session.page, '__rfAbortRun', 'render cancelled').catch(() => {});
  };
  req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await body(scratch);
    ok = true;
    return result;
  } catch (err) {
    // a cancel surfaces as whatever broke first (page, ffmpeg); report the cancel itself
    if (req.signal?.aborted) throw req.signal.reason;
    throw err;
  } finally {
    req.signal?.removeEventListener('abort', onAbort);
    scratch.live.encoder?.kill();
    await Promise.all(temps.map((t) => rm(t, { force: true })));
    if (!(keepStage && ok)) await callStage(session.page, 'renderStage.dispose').catch(() => {});
  }
}

interface PassPlan<S extends SheetTarget> {
  token: string;
  /** frame indices of the turn, consecutive, the first one at a segment / sheet row boundary */
  indices: number[];
  transparent: boolean;
  videoSize: { width: number; height: number };
  /** raw H.264 out, from WebCodecs (h264 set) or x264 segments; null: no video */
  video: { sink: H264Sink; h264: PageH264 | null } | null;
  sheet: S | null;
  /** read the raw hero frame during the turn */
  heroFrame: number | null;
  /** the running encoder, for cancel */
  live: { encoder: { kill(): void } | null };
  renderStart: number;
}

export interface PassResult<S extends SheetTarget = SheetTarget> {
  sheet: S | null;
  /** raw RGBA of the hero frame, rows bottom-up */
  still: Uint8Array | null;
}

/**
 * One turn of the camera: renders every frame once and feeds every consumer (ffmpeg, the
 * sprite sheet, the still) as frames and chunks arrive, in render order.
 */
async function capturePass<S extends SheetTarget>(
  session: RenderSession,
  req: TurnRequest,
  plan: PassPlan<S>,
): Promise<PassResult<S>> {
  const { page, server } = session;
  const total = plan.indices.length;
  const first = plan.indices[0] ?? 0;
  const x264 = !!plan.video && !plan.video.h264;
  const sprite = plan.sheet;
  const frames: PageRunRequest['frames'] = x264
    ? { type: plan.transparent ? 'image/png' : 'image/jpeg', quality: FRAME_QUALITY }
    : sprite
      ? plan.transparent
        ? { type: 'image/png', quality: 1 }
        : { type: 'sheet', columns: sprite.layout.columns }
      : null;
  let encoder: VideoEncoder | null = null;
  if (plan.video) {
    // WebCodecs chunks go straight to the sink (a remux, -c copy: ffmpeg is nearly idle); x264 is the heavy fallback
    encoder = x264
      ? new SegmentedX264Encoder(
          req.ffmpegPath,
          {
            input: frames!.type === 'image/png' ? 'png' : 'jpeg',
            fps: req.options.fps,
            ...plan.videoSize,
            segmentFrames: videoSegmentFrames(req.options),
          },
          plan.video.sink,
        )
      : plan.video.sink;
    plan.live.encoder = encoder;
  }
  const unregister: Array<() => void> = [];
  const progress = (position: number) => {
    const secs = (performance.now() - plan.renderStart) / 1000;
    req.onProgress?.({ stage: 'render', frame: position + 1, total, fps: secs > 0 ? (position + 1) / secs : 0 });
  };
  let still: Uint8Array | null = null;
  try {
    const video = encoder;
    // sheet rows arrive numbered by row of the whole sheet, every other capture by frame index
    const columns = frames?.type === 'sheet' ? frames.columns : 0;
    const order = columns
      ? Array.from({ length: Math.ceil((first + total) / columns) - first / columns }, (_, r) => first / columns + r)
      : plan.indices;
    const frameSeq = frames
      ? new FrameSequencer(order, async (key, bytes, position) => {
          req.signal?.throwIfAborted();
          if (!columns) {
            await Promise.all([x264 ? video!.write(bytes) : undefined, sprite?.add(key, bytes)]);
            progress(position);
            return;
          }
          sprite!.addRow(key, bytes);
          for (let p = key * columns; p < Math.min(first + total, (key + 1) * columns); p++) progress(p - first);
        })
      : null;
    if (frameSeq) unregister.push(server.onFrames(plan.token, (i, b) => frameSeq.push(i, b)));
    // H.264 chunks: one per frame, in decode order (no B-frames), numbered by position in the run
    const chunkSeq = plan.video?.h264
      ? new FrameSequencer(
          plan.indices.map((_, i) => i),
          async (_seq, bytes, position) => {
            req.signal?.throwIfAborted();
            await video!.write(bytes);
            if (!frameSeq) progress(position);
          },
        )
      : null;
    if (chunkSeq) unregister.push(server.onFrames(`${plan.token}-h264`, (i, b) => chunkSeq.push(i, b)));
    unregister.push(
      server.onFrames(`${plan.token}-still`, async (_i, b) => {
        still = b;
      }),
    );
    const run: PageRunRequest = {
      token: plan.token,
      indices: plan.indices,
      frames,
      h264: plan.video?.h264 ?? null,
      stills: plan.heroFrame === null ? [] : [plan.heroFrame],
      window: IN_FLIGHT,
    };
    const got = await callStage(page, '__rfRun', run);
    if (frameSeq && frameSeq.delivered !== order.length)
      throw new Error(`captured ${frameSeq.delivered} of ${order.length} ${columns ? 'sheet rows' : 'frames'}`);
    if (chunkSeq && (got.chunks !== total || chunkSeq.delivered !== total)) {
      throw new Error(`webcodecs: encoded ${got.chunks} chunks (${chunkSeq.delivered} delivered) for ${total} frames`);
    }
    if (encoder) {
      await encoder.finish();
      encoder = null;
      plan.live.encoder = null;
    }
    return { sheet: sprite, still };
  } finally {
    unregister.forEach((u) => u());
    encoder?.kill();
    if (plan.live.encoder === encoder) plan.live.encoder = null;
  }
}
