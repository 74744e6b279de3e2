/**
 * Renders one build to files: an MP4 turntable, a WebP sprite sheet and/or a hero still.
 * Frames are rendered and captured in the page and streamed to the consumers as they arrive
 * (the page renders frame i+1 while Node handles frame i); nothing holds every frame.
 * Video: H.264 encoded in the page by WebCodecs and only remuxed by ffmpeg, or, where the
 * browser cannot (no VideoEncoder, no H.264, a failure mid-way), JPEG frames through x264.
 * Either way in independent segments of VIDEO_SEGMENT_FRAMES (a fresh encoder each), so a
 * farm chunk (renderChunk) of whole segments yields exactly the bytes of those frames in the
 * whole render, and chunks concatenate (encode/assemble.ts) to the same MP4.
 * Sprites: rows of frames composed in the page, sent raw and copied into the sheet, one WebP
 * encode at the end.
 * Files are written under temporary names and renamed into place only when complete.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { toStageOptions, type StageBuild, type StageInfo } from '../model/stage-contract.js';
import { h264Bitrate, h264Codecs } from '../encode/h264-config.js';
import { writeScreenshot, writeScreenshotRaw, type ScreenshotFormat } from '../encode/screenshot.js';
import { layoutFor } from '../model/sprite-layout.js';
import { SpriteSheetWriter } from '../encode/sprite-sheet.js';
import { SegmentedX264Encoder, startVideoEncoder, type H264Sink, type VideoEncoder } from '../encode/video-encoder.js';
import { startH264File } from '../encode/h264-file.js';
import { chunkUnitFrames } from '../model/chunk-unit.js';
import { videoSegmentFrames } from '../model/chunk-unit.js';
import sharp from 'sharp';
import { ensureDir } from '../ensure-dir.js';
import type { GlBackendName } from './chromium-args.js';
import type { BrowserPool, RenderSession } from './browser-pool.js';
import { FrameSequencer } from './frame-sequencer.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';
import type { SpriteLayout } from '../model/sprite-layout.js';
import { captureRequest, type PageH264, type PageRunRequest } from '../model/capture-contract.js';
import { callStage } from './call-stage.js';
import type { ModelSource } from './model-source.js';

/** Which files to produce; by default the main result of options.format plus a WebP still. */
export interface RenderOutputs {
  video?: boolean;
  sprite?: boolean;
  screenshot?: ScreenshotFormat | false;
}

export interface RenderProgress {
  stage: 'load' | 'render' | 'encode' | 'done';
  frame: number;
  total: number;
  /** frames captured per second so far */
  fps: number;
}

/**
 * How frames reach the video encoder on each GL backend, whichever measured faster there. On the
 * CPU backends our readPixels into a buffer (page-capture.ts: 720p fast 87 CPU ms a frame against
 * 145 for VideoFrame(canvas), llvmpipe). On a GPU the canvas itself: the GPU process converts it
 * (an H200, 2026-11-27, bench/device kit: 720p cinematic 8.9 -> 6.4 ms a frame, 1080p 17.9 -> 12.9).
 */
export function videoFramesFor(backend: GlBackendName): 'pixels' | 'canvas' {
  return backend === 'gpu' ? 'canvas' : 'pixels';
}

export interface RenderRequest {
  pool: BrowserPool;
  ffmpegPath: string;
  build: StageBuild;
  options: ResolvedRenderOptions;
  outputs?: RenderOutputs;
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
  /** Tests only: render just the first N frames of the full turn (angles stay i*360/frames). */
  frameLimit?: number;
  /** part models for this render (model-source.ts withOverrides), in front of the engine's source */
  models?: ModelSource;
}

export interface RenderedFile {
  kind: 'video' | 'sprite' | 'screenshot';
  path: string;
  bytes: number;
  mime: string;
  width: number;
  height: number;
}

export interface RenderResult {
  files: RenderedFile[];
  sprite: SpriteLayout | null;
  /** milliseconds */
  timings: { load: number; render: number; encode: number; total: number };
  backend: GlBackendName;
  glRenderer: string;
  /** frames rendered and captured per second */
  framesPerSecond: number;
  frames: number;
  warnings: string[];
  /** how video.mp4 was encoded (absent without a video) */
  videoPath?: VideoPath;
}

/** JPEG 0.95 intermediates for the x264 fallback: cheapest to encode in the page and decode in ffmpeg, visually lossless. */
const FRAME_QUALITY = 0.95;
/** Frames in flight between page and Node: uploads and Node's work overlap the next renders. */
const IN_FLIGHT = 3;

/** How the MP4 was encoded: WebCodecs H.264 in the page (muxed by ffmpeg), or JPEG frames through x264. */
export type VideoPath = 'webcodecs' | 'x264';

/** Default outputs for a format. */
export function outputsFor(options: ResolvedRenderOptions): RenderOutputs {
  return options.format === 'video' ? { video: true, screenshot: 'webp' } : { sprite: true, screenshot: 'webp' };
}

/** Renders `req.build`; resolves with the files written into `req.outDir`. */
export async function renderBuild(req: RenderRequest): Promise<RenderResult> {
  return req.pool.use((session) => withModelSource(session, req.models, () => renderWith(session, req)), req.signal);
}

/** Runs `fn` with the stage server serving `models` (when given), then puts the pool's source back. */
async function withModelSource<T>(session: RenderSession, models: ModelSource | undefined, fn: () => Promise<T>): Promise<T> {
  if (!models) return fn();
  const previous = session.server.setModelSource(models);
  try {
    return await fn();
  } finally {
    session.server.setModelSource(previous);
  }
}

/** One farm chunk of a render: frames [start, end) of the full turn (see renderChunk). */
export interface ChunkRequest extends Omit<RenderRequest, 'outputs' | 'frameLimit'> {
  /** frames [start, end) of the full turn; start a multiple of chunkUnitFrames(options), end a multiple of it or options.frames */
  start: number;
  end: number;
}

/**
 * A chunk's file: `h264` (video.h264, the raw segments of its frames), `rows` (rows.png, its
 * sprite sheet rows, lossless RGBA) or `screenshot` (screenshot.webp, when the hero frame is in it).
 */
export interface ChunkPiece {
  kind: 'h264' | 'rows' | 'screenshot';
  path: string;
  mime: string;
  bytes: number;
}

export interface ChunkResult {
  /** files in req.outDir */
  pieces: ChunkPiece[];
  /** end - start */
  frames: number;
  framesPerSecond: number;
  /** milliseconds */
  timings: { load: number; render: number; encode: number; total: number };
  backend: GlBackendName;
  glRenderer: string;
  warnings: string[];
  videoPath?: VideoPath;
}

/**
 * Renders frames [start, end) of a build for the farm: the pieces that encode/assemble.ts
 * joins into exactly the bytes renderBuild writes for the whole turn (opaque renders only).
 */
export async function renderChunk(req: ChunkRequest): Promise<ChunkResult> {
  checkChunk(req);
  return req.pool.use((session) => withModelSource(session, req.models, () => renderChunkWith(session, req)), req.signal);
}

function checkChunk(req: ChunkRequest): void {
  const o = req.options;
  // transparent frames take other capture paths (PNG per frame) that chunks do not reproduce
  if (req.transparent) throw new Error('renderChunk: transparent renders are not chunked');
  const unit = chunkUnitFrames(o);
  const { start, end } = req;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start || end > o.frames) {
    throw new RangeError(`renderChunk: frames [${start}, ${end}) outside the turn of ${o.frames}`);
  }
  if (start % unit !== 0 || (end % unit !== 0 && end !== o.frames)) {
    throw new RangeError(`renderChunk: frames [${start}, ${end}) must start and end on multiples of ${unit} (or end at ${o.frames})`);
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
interface TurnPlan {
  indices: number[];
  transparent: boolean;
  /** a fresh raw-H.264 sink per pass (a failed WebCodecs pass is redone with x264); null: no video */
  videoSink: ((videoSize: { width: number; height: number }) => H264Sink) | null;
  /** a fresh sheet target per pass; null: no sprite */
  sheet: (() => SheetTarget) | null;
  /** read the raw hero frame during the turn when it is one of `indices` */
  still: boolean;
  /** keep using the page's scene when it was loaded from this very build and options (chunks) */
  reuseStage?: boolean;
}

interface TurnResult {
  info: StageInfo;
  done: PassResult;
  videoPath: VideoPath | null;
  videoSize: { width: number; height: number };
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
async function runTurn(session: RenderSession, req: RenderRequest, scratch: Scratch, plan: TurnPlan): Promise<TurnResult> {
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
    const cfg = { ...videoSize, fps: o.fps, bitrate: h264Bitrate(videoSize.width, videoSize.height, o.fps), segmentFrames: videoSegmentFrames(o) };
    const codec = await pageH264(session, cfg);
    if (codec) h264 = { ...cfg, codec, ...((req.videoFrames ?? videoFramesFor(session.backend)) === 'canvas' ? { fromCanvas: true } : {}) };
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
      video: videoPath && plan.videoSink ? { sink: plan.videoSink(videoSize), h264: videoPath === 'webcodecs' ? h264 : null } : null,
      sheet: plan.sheet ? plan.sheet() : null,
      heroFrame,
      live: scratch.live,
      renderStart,
    });
  let videoPath: VideoPath | null = plan.videoSink ? (h264 ? 'webcodecs' : 'x264') : null;
  let done: PassResult = { sheet: null, still: null };
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
  req.onProgress?.({ stage: 'encode', frame: total, total, fps: total / Math.max(1e-3, (rendered - renderStart) / 1000) });
  return { info, done, videoPath, videoSize, loaded, renderStart, rendered };
}

/**
 * Runs `body` with temporary files and cancel wiring; cleans up whatever happens. The scene is
 * disposed afterwards, unless `keepStage` and the body succeeded (the next chunk may reuse it).
 */
async function withScratch<T>(session: RenderSession, req: RenderRequest, body: (scratch: Scratch) => Promise<T>, keepStage = false): Promise<T> {
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

function fpsOf(frames: number, ms: number): number {
  return frames > 0 ? Math.round((frames / Math.max(1e-3, ms / 1000)) * 100) / 100 : 0;
}

async function renderWith(session: RenderSession, req: RenderRequest): Promise<RenderResult> {
  const o = req.options;
  const outputs = req.outputs ?? outputsFor(o);
  const transparent = req.transparent ?? false;
  const started = performance.now();
  return withScratch(session, req, async (scratch) => {
    const files: RenderedFile[] = [];
    const total = Math.min(o.frames, req.frameLimit ?? o.frames);
    const indices = Array.from({ length: total }, (_, i) => i);
    const spriteLayout = outputs.sprite ? (total === o.frames && o.sprite ? o.sprite : layoutFor(total, o.width, o.height)) : null;
    if (!outputs.video && !spriteLayout && !outputs.screenshot) throw new Error('nothing to render: no output selected');
    let videoTemp: string | null = null;
    const turn = await runTurn(session, req, scratch, {
      indices,
      transparent,
      // the segments' raw H.264 is only remuxed (-c copy): the same command assembleVideo runs
      videoSink: outputs.video
        ? (size) => {
            videoTemp = scratch.tempFor('video.mp4');
            return startVideoEncoder(req.ffmpegPath, { input: 'h264', fps: o.fps, ...size, output: videoTemp });
          }
        : null,
      sheet: spriteLayout ? () => new SpriteSheetWriter(spriteLayout, transparent) : null,
      // the lossless hero still is read during the turn when it is one of its frames (opaque
      // only: readPixels gives premultiplied alpha); otherwise it is rendered on its own afterwards
      still: !!outputs.screenshot && !transparent,
    });
    const { info, done, videoPath, videoSize } = turn;

    const finals: Array<[string, string]> = [];
    if (videoTemp && videoPath) {
      finals.push([videoTemp, 'video.mp4']);
      files.push({ kind: 'video', path: path.join(req.outDir, 'video.mp4'), bytes: 0, mime: 'video/mp4', ...videoSize });
    }
    if (done.sheet) {
      const temp = scratch.tempFor('sprite.webp');
      await (done.sheet as SpriteSheetWriter).writeWebp(temp);
      finals.push([temp, 'sprite.webp']);
      const l = done.sheet.layout;
      files.push({ kind: 'sprite', path: path.join(req.outDir, 'sprite.webp'), bytes: 0, mime: 'image/webp', width: l.columns * l.frame_width, height: l.rows * l.frame_height });
    }
    if (outputs.screenshot) {
      const name = `screenshot.${outputs.screenshot}`;
      const temp = scratch.tempFor(name);
      if (done.still) await writeScreenshotRaw(done.still, o.width, o.height, outputs.screenshot, temp);
      else await writeScreenshot(await captureStill(session, scratch.token, info.heroFrame, req.signal), outputs.screenshot, temp);
      finals.push([temp, name]);
      files.push({ kind: 'screenshot', path: path.join(req.outDir, name), bytes: 0, mime: `image/${outputs.screenshot}`, width: o.width, height: o.height });
    }
    req.signal?.throwIfAborted();
    for (const [temp, name] of finals) await rename(temp, path.join(req.outDir, name));
    for (const f of files) f.bytes = (await stat(f.path)).size;
    const end = performance.now();
    const result: RenderResult = {
      files,
      sprite: done.sheet ? done.sheet.layout : null,
      timings: { load: Math.round(turn.loaded - started), render: Math.round(turn.rendered - turn.renderStart), encode: Math.round(end - turn.rendered), total: Math.round(end - started) },
      backend: session.backend,
      glRenderer: session.gl.renderer,
      framesPerSecond: fpsOf(total, turn.rendered - turn.renderStart),
      frames: total,
      // a GPU crash this render survived on the CPU (browser-pool.ts) is reported with it
      warnings: [...(info.warnings ?? []), ...(session.fallback ? [session.fallback] : [])],
      ...(videoPath ? { videoPath } : {}),
    };
    req.onProgress?.({ stage: 'done', frame: total, total, fps: result.framesPerSecond });
    return result;
  });
}

/**
 * A chunk's sheet rows, kept raw as the page sent them (RGBA, top-down) and written as one
 * lossless PNG: assembleSprite hands exactly these bytes to SpriteSheetWriter.addRow.
 */
class ChunkRows implements SheetTarget {
  private readonly rows = new Map<number, Uint8Array>();

  constructor(
    readonly layout: SpriteLayout,
    private readonly firstRow: number,
    private readonly count: number,
  ) {}

  addRow(row: number, rgba: Uint8Array): void {
    const width = this.layout.columns * this.layout.frame_width;
    if (row < this.firstRow || row >= this.firstRow + this.count) throw new RangeError(`row ${row} outside this chunk's ${this.firstRow}..${this.firstRow + this.count - 1}`);
    if (rgba.length !== width * this.layout.frame_height * 4) throw new Error(`row ${row} has ${rgba.length} bytes, expected ${width}x${this.layout.frame_height} RGBA`);
    this.rows.set(row, rgba);
  }

  add(): Promise<void> {
    return Promise.reject(new Error('chunk rows take whole sheet rows only'));
  }

  async writePng(file: string): Promise<void> {
    const width = this.layout.columns * this.layout.frame_width;
    const height = this.count * this.layout.frame_height;
    const parts: Uint8Array[] = [];
    for (let r = this.firstRow; r < this.firstRow + this.count; r++) {
      const row = this.rows.get(r);
      if (!row) throw new Error(`sheet row ${r} was not captured`);
      parts.push(row);
    }
    // lossless and only a hop to the assemble step: cheap compression
    await sharp(Buffer.concat(parts), { raw: { width, height, channels: 4 } }).png({ compressionLevel: 1 }).toFile(file);
  }
}

async function renderChunkWith(session: RenderSession, req: ChunkRequest): Promise<ChunkResult> {
  const o = req.options;
  const started = performance.now();
  const full: RenderRequest = { ...req, transparent: false };
  return withScratch(session, full, async (scratch) => {
    const indices = Array.from({ length: req.end - req.start }, (_, i) => req.start + i);
    const video = o.format === 'video';
    const layout = video ? null : o.sprite;
    if (!video && !layout) throw new Error('renderChunk: sprite options without a sprite layout');
    let videoTemp: string | null = null;
    const firstRow = layout ? req.start / layout.columns : 0;
    const rowCount = layout ? Math.ceil(req.end / layout.columns) - firstRow : 0;
    const turn = await runTurn(session, full, scratch, {
      indices,
      transparent: false,
      videoSink: video
        ? () => {
            videoTemp = scratch.tempFor('video.h264');
            return startH264File(videoTemp);
          }
        : null,
      sheet: layout ? () => new ChunkRows(layout, firstRow, rowCount) : null,
      still: true,
      reuseStage: true,
    });
    const { info, done, videoPath } = turn;
    const finals: Array<[string, ChunkPiece]> = [];
    const piece = (kind: ChunkPiece['kind'], name: string, mime: string): ChunkPiece => ({ kind, path: path.join(req.outDir, name), mime, bytes: 0 });
    if (videoTemp && videoPath) finals.push([videoTemp, piece('h264', 'video.h264', 'video/h264')]);
    if (done.sheet) {
      const temp = scratch.tempFor('rows.png');
      await (done.sheet as ChunkRows).writePng(temp);
      finals.push([temp, piece('rows', 'rows.png', 'image/png')]);
    }
    if (done.still) {
      // exactly the whole render's in-turn still (same raw pixels, same encoder settings)
      const temp = scratch.tempFor('screenshot.webp');
      await writeScreenshotRaw(done.still, o.width, o.height, 'webp', temp);
      finals.push([temp, piece('screenshot', 'screenshot.webp', 'image/webp')]);
    }
    req.signal?.throwIfAborted();
    for (const [temp, p] of finals) {
      await rename(temp, p.path);
      p.bytes = (await stat(p.path)).size;
    }
    const end = performance.now();
    const frames = indices.length;
    const result: ChunkResult = {
      pieces: finals.map(([, p]) => p),
      frames,
      framesPerSecond: fpsOf(frames, turn.rendered - turn.renderStart),
      timings: { load: Math.round(turn.loaded - started), render: Math.round(turn.rendered - turn.renderStart), encode: Math.round(end - turn.rendered), total: Math.round(end - started) },
      backend: session.backend,
      glRenderer: session.gl.renderer,
      // a GPU crash this render survived on the CPU (browser-pool.ts) is reported with it
      warnings: [...(info.warnings ?? []), ...(session.fallback ? [session.fallback] : [])],
      ...(videoPath ? { videoPath } : {}),
    };
    req.onProgress?.({ stage: 'done', frame: frames, total: frames, fps: result.framesPerSecond });
    return result;
  }, true);
}

interface PassPlan {
  token: string;
  /** frame indices of the turn, consecutive, the first one at a segment / sheet row boundary */
  indices: number[];
  transparent: boolean;
  videoSize: { width: number; height: number };
  /** raw H.264 out, from WebCodecs (h264 set) or x264 segments; null: no video */
  video: { sink: H264Sink; h264: PageH264 | null } | null;
  sheet: SheetTarget | null;
  /** read the raw hero frame during the turn */
  heroFrame: number | null;
  /** the running encoder, for cancel */
  live: { encoder: { kill(): void } | null };
  renderStart: number;
}

interface PassResult {
  sheet: SheetTarget | null;
  /** raw RGBA of the hero frame, rows bottom-up */
  still: Uint8Array | null;
}

/**
 * One turn of the camera: renders every frame once and feeds every consumer (ffmpeg, the
 * sprite sheet, the still) as frames and chunks arrive, in render order.
 */
async function capturePass(session: RenderSession, req: RenderRequest, plan: PassPlan): Promise<PassResult> {
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
      ? new SegmentedX264Encoder(req.ffmpegPath, { input: frames!.type === 'image/png' ? 'png' : 'jpeg', fps: req.options.fps, ...plan.videoSize, segmentFrames: videoSegmentFrames(req.options) }, plan.video.sink)
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
      ? new FrameSequencer(plan.indices.map((_, i) => i), async (_seq, bytes, position) => {
          req.signal?.throwIfAborted();
          await video!.write(bytes);
          if (!frameSeq) progress(position);
        })
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
    if (frameSeq && frameSeq.delivered !== order.length) throw new Error(`captured ${frameSeq.delivered} of ${order.length} ${columns ? 'sheet rows' : 'frames'}`);
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

/** Renders and captures one lossless frame (the hero angle). */
async function captureStill(session: RenderSession, token: string, index: number, signal?: AbortSignal): Promise<Buffer> {
  signal?.throwIfAborted();
  let still: Buffer | null = null;
  const stillToken = `${token}-still`;
  const off = session.server.onFrames(stillToken, async (_i, b) => {
    still = b;
  });
  try {
    await callStage(session.page, '__rfRun', captureRequest({ token: stillToken, indices: [index], type: 'image/png', quality: 1, window: 1 }));
  } finally {
    off();
  }
  if (!still) throw new Error('the hero frame was not captured');
  return still;
}

/** What renderStills needs. */
export interface StillsRequest {
  pool: BrowserPool;
  build: StageBuild;
  options: ResolvedRenderOptions;
  /** frame indices of the turn (index === options.frames is the full turn, for loop checks) */
  indices: number[];
  transparent?: boolean;
  signal?: AbortSignal;
  /** part models for these stills, in front of the engine's source */
  models?: ModelSource;
}

/** Renders single frames as lossless PNGs in memory (thumbnails, tests): for a few frames only. */
export async function renderStills(req: StillsRequest): Promise<Buffer[]> {
  return req.pool.use((session) => withModelSource(session, req.models, async () => {
    const token = randomBytes(9).toString('base64url');
    const out = new Map<number, Buffer>();
    const off = session.server.onFrames(token, async (i, b) => {
      out.set(i, b);
    });
    try {
      await callStage(session.page, 'renderStage.load', req.build, toStageOptions(req.options, { transparent: req.transparent ?? false }));
      for (const index of req.indices) {
        req.signal?.throwIfAborted();
        await callStage(session.page, '__rfRun', captureRequest({ token, indices: [index], type: 'image/png', quality: 1, window: 1 }));
      }
      return req.indices.map((i) => out.get(i)!);
    } finally {
      off();
      await callStage(session.page, 'renderStage.dispose').catch(() => {});
    }
  }), req.signal);
}
