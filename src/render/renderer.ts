/**
 * Renders one build to files: an MP4 turntable, a WebP sprite sheet and/or a hero still.
 * Frames are rendered and captured in the page and streamed to the consumers as they arrive
 * (the page renders frame i+1 while Node handles frame i); nothing holds every frame.
 * Video: H.264 encoded in the page by WebCodecs and only remuxed by ffmpeg, or, where the
 * browser cannot (no VideoEncoder, no H.264, a failure mid-way), JPEG frames through x264.
 * Sprites: rows of frames composed in the page, sent raw and copied into the sheet, one WebP
 * encode at the end.
 * Files are written under temporary names and renamed into place only when complete.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StageBuild, StageInfo, StageOptions } from '../model/stage-contract.js';
import { h264Bitrate, h264Codecs } from '../encode/h264-config.js';
import { writeScreenshot, writeScreenshotRaw, type ScreenshotFormat } from '../encode/screenshot.js';
import { layoutFor } from '../model/sprite-layout.js';
import { SpriteSheetWriter } from '../encode/sprite-sheet.js';
import { startVideoEncoder, type VideoEncoder } from '../encode/video-encoder.js';
import { ensureDir } from '../ensure-dir.js';
import type { GlBackendName } from './chromium-args.js';
import type { BrowserPool, RenderSession } from './browser-pool.js';
import { FrameSequencer } from './frame-sequencer.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';
import type { SpriteLayout } from '../model/sprite-layout.js';
import { abortExpression, captureExpression, runExpression, type PageH264, type PageRunRequest } from './page-capture.js';

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
  /** Tests only: render just the first N frames of the full turn (angles stay i*360/frames). */
  frameLimit?: number;
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

function stageOptions(o: ResolvedRenderOptions, transparent: boolean): StageOptions {
  return {
    width: o.width,
    height: o.height,
    profile: o.profile,
    scene: o.scene,
    showBackground: o.showBackground,
    showGrid: o.showGrid,
    gridSettings: o.gridSettings,
    winterMode: o.winterMode,
    springMode: o.springMode,
    cameraOffsetX: o.cameraOffsetX,
    cameraZoom: o.cameraZoom,
    frames: o.frames,
    transparent,
  };
}

/** Renders `req.build`; resolves with the files written into `req.outDir`. */
export async function renderBuild(req: RenderRequest): Promise<RenderResult> {
  return req.pool.use((session) => renderWith(session, req), req.signal);
}

/** The H.264 codec string the page's WebCodecs encodes at this size, or null (use x264). */
async function pageH264(session: RenderSession, cfg: Omit<PageH264, 'codec'>): Promise<string | null> {
  const codecs = h264Codecs(cfg.width, cfg.height, cfg.fps);
  if (codecs.length === 0) return null;
  const args = [cfg.width, cfg.height, cfg.fps, cfg.bitrate, codecs].map((a) => JSON.stringify(a)).join(', ');
  return ((await session.page.evaluate(`window.__rfH264Codec(${args})`)) as string | null) ?? null;
}

/** A WebCodecs failure in the page (worth retrying with x264), as opposed to any other error. */
function isWebCodecsFailure(err: unknown): boolean {
  return err instanceof Error && /webcodecs:/.test(err.message);
}

async function renderWith(session: RenderSession, req: RenderRequest): Promise<RenderResult> {
  const { page } = session;
  const o = req.options;
  const outputs = req.outputs ?? outputsFor(o);
  const transparent = req.transparent ?? false;
  const started = performance.now();
  const token = randomBytes(9).toString('base64url');
  const temps: string[] = [];
  const files: RenderedFile[] = [];
  const tempFor = (name: string) => {
    const file = path.join(req.outDir, `.${name}.${token}.partial`);
    temps.push(file);
    return file;
  };
  const live: { encoder: VideoEncoder | null } = { encoder: null };
  const onAbort = () => {
    live.encoder?.kill();
    void page.evaluate(abortExpression('render cancelled')).catch(() => {});
  };
  req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    req.signal?.throwIfAborted();
    await ensureDir(req.outDir, 'render output directory');
    req.onProgress?.({ stage: 'load', frame: 0, total: 0, fps: 0 });
    const info = (await page.evaluate(
      `window.renderStage.load(${JSON.stringify(req.build)}, ${JSON.stringify(stageOptions(o, transparent))})`,
    )) as StageInfo;
    const loaded = performance.now();

    const total = Math.min(o.frames, req.frameLimit ?? o.frames);
    const indices = Array.from({ length: total }, (_, i) => i);
    // H.264 in yuv420p needs even dimensions
    const videoSize = { width: o.width - (o.width % 2), height: o.height - (o.height % 2) };
    const spriteLayout = outputs.sprite ? (total === o.frames && o.sprite ? o.sprite : layoutFor(total, o.width, o.height)) : null;
    if (!outputs.video && !spriteLayout && !outputs.screenshot) throw new Error('nothing to render: no output selected');
    // the lossless hero still is read during the turn when it is one of its frames (opaque only:
    // readPixels gives premultiplied alpha); otherwise it is rendered on its own afterwards
    const stillInTurn = !!outputs.screenshot && !transparent && indices.includes(info.heroFrame) && (!!outputs.video || !!spriteLayout);
    let h264: PageH264 | null = null;
    if (outputs.video && req.videoEncoder !== 'x264') {
      const cfg = { ...videoSize, fps: o.fps, bitrate: h264Bitrate(videoSize.width, videoSize.height, o.fps) };
      const codec = await pageH264(session, cfg);
      if (codec) h264 = { ...cfg, codec };
    }

    const renderStart = performance.now();
    let passes = 0;
    const pass = (videoPath: VideoPath | null) =>
      capturePass(session, req, {
        // a fresh route per pass: late uploads of a failed pass must not reach the next one
        token: `${token}p${passes++}`,
        indices,
        transparent,
        videoSize,
        videoTemp: videoPath ? tempFor('video.mp4') : null,
        h264: videoPath === 'webcodecs' ? h264 : null,
        spriteLayout,
        heroFrame: stillInTurn ? info.heroFrame : null,
        live,
        renderStart,
      });
    let videoPath: VideoPath | null = outputs.video ? (h264 ? 'webcodecs' : 'x264') : null;
    let done: PassResult = { video: null, sprite: null, still: null };
    try {
      // a still alone needs no turn: it is rendered by itself below
      if (videoPath || spriteLayout) done = await pass(videoPath);
    } catch (err) {
      // e.g. an encoder that passed isConfigSupported and then failed: do it again with x264
      if (videoPath !== 'webcodecs' || !isWebCodecsFailure(err) || req.signal?.aborted) throw err;
      videoPath = 'x264';
      done = await pass(videoPath);
    }
    const rendered = performance.now();
    req.onProgress?.({ stage: 'encode', frame: total, total, fps: total / Math.max(1e-3, (rendered - renderStart) / 1000) });

    const finals: Array<[string, string]> = [];
    if (done.video) {
      finals.push([done.video, 'video.mp4']);
      files.push({ kind: 'video', path: path.join(req.outDir, 'video.mp4'), bytes: 0, mime: 'video/mp4', ...videoSize });
    }
    if (done.sprite) {
      const temp = tempFor('sprite.webp');
      await done.sprite.writeWebp(temp);
      finals.push([temp, 'sprite.webp']);
      const l = done.sprite.layout;
      files.push({ kind: 'sprite', path: path.join(req.outDir, 'sprite.webp'), bytes: 0, mime: 'image/webp', width: l.columns * l.frame_width, height: l.rows * l.frame_height });
    }
    if (outputs.screenshot) {
      const name = `screenshot.${outputs.screenshot}`;
      const temp = tempFor(name);
      if (done.still) await writeScreenshotRaw(done.still, o.width, o.height, outputs.screenshot, temp);
      else await writeScreenshot(await captureStill(session, token, info.heroFrame, req.signal), outputs.screenshot, temp);
      finals.push([temp, name]);
      files.push({ kind: 'screenshot', path: path.join(req.outDir, name), bytes: 0, mime: `image/${outputs.screenshot}`, width: o.width, height: o.height });
    }
    req.signal?.throwIfAborted();
    for (const [temp, name] of finals) await rename(temp, path.join(req.outDir, name));
    for (const f of files) f.bytes = (await stat(f.path)).size;
    const end = performance.now();
    const result: RenderResult = {
      files,
      sprite: done.sprite ? done.sprite.layout : null,
      timings: { load: Math.round(loaded - started), render: Math.round(rendered - renderStart), encode: Math.round(end - rendered), total: Math.round(end - started) },
      backend: session.backend,
      glRenderer: session.gl.renderer,
      framesPerSecond: total > 0 ? Math.round((total / Math.max(1e-3, (rendered - renderStart) / 1000)) * 100) / 100 : 0,
      frames: total,
      warnings: info.warnings ?? [],
      ...(videoPath ? { videoPath } : {}),
    };
    req.onProgress?.({ stage: 'done', frame: total, total, fps: result.framesPerSecond });
    return result;
  } catch (err) {
    // a cancel surfaces as whatever broke first (page, ffmpeg); report the cancel itself
    if (req.signal?.aborted) throw req.signal.reason;
    throw err;
  } finally {
    req.signal?.removeEventListener('abort', onAbort);
    live.encoder?.kill();
    await Promise.all(temps.map((t) => rm(t, { force: true })));
    await page.evaluate('window.renderStage && window.renderStage.dispose()').catch(() => {});
  }
}

interface PassPlan {
  token: string;
  indices: number[];
  transparent: boolean;
  videoSize: { width: number; height: number };
  /** where ffmpeg writes the MP4; null: no video */
  videoTemp: string | null;
  /** WebCodecs settings; null with a videoTemp: JPEG frames through x264 */
  h264: PageH264 | null;
  spriteLayout: SpriteLayout | null;
  /** read the raw hero frame during the turn */
  heroFrame: number | null;
  /** the running ffmpeg, for cancel */
  live: { encoder: VideoEncoder | null };
  renderStart: number;
}

interface PassResult {
  /** the finished MP4 (temporary name) */
  video: string | null;
  sprite: SpriteSheetWriter | null;
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
  const x264 = !!plan.videoTemp && !plan.h264;
  const frames: PageRunRequest['frames'] = x264
    ? { type: plan.transparent ? 'image/png' : 'image/jpeg', quality: FRAME_QUALITY }
    : plan.spriteLayout
      ? plan.transparent
        ? { type: 'image/png', quality: 1 }
        : { type: 'sheet', columns: plan.spriteLayout.columns }
      : null;
  const sprite = plan.spriteLayout ? new SpriteSheetWriter(plan.spriteLayout, plan.transparent) : null;
  let encoder: VideoEncoder | null = null;
  if (plan.videoTemp) {
    // the WebCodecs path only remuxes (-c copy): ffmpeg is nearly idle; x264 is the heavy fallback
    encoder = startVideoEncoder(req.ffmpegPath, { input: plan.h264 ? 'h264' : frames!.type === 'image/png' ? 'png' : 'jpeg', fps: req.options.fps, ...plan.videoSize, output: plan.videoTemp });
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
    // sheet rows arrive numbered by row, every other capture by frame index
    const columns = frames?.type === 'sheet' ? frames.columns : 0;
    const order = columns ? Array.from({ length: Math.ceil(total / columns) }, (_, r) => r) : plan.indices;
    const frameSeq = frames
      ? new FrameSequencer(order, async (key, bytes, position) => {
          req.signal?.throwIfAborted();
          if (!columns) {
            await Promise.all([x264 ? video!.write(bytes) : undefined, sprite?.add(key, bytes)]);
            progress(position);
            return;
          }
          sprite!.addRow(key, bytes);
          for (let p = key * columns; p < Math.min(total, (key + 1) * columns); p++) progress(p);
        })
      : null;
    if (frameSeq) unregister.push(server.onFrames(plan.token, (i, b) => frameSeq.push(i, b)));
    // H.264 chunks: one per frame, in decode order (no B-frames), numbered by the page
    const chunkSeq = plan.h264
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
      h264: plan.h264,
      stills: plan.heroFrame === null ? [] : [plan.heroFrame],
      window: IN_FLIGHT,
    };
    const got = (await page.evaluate(runExpression(run))) as { frames: number; chunks: number };
    if (frameSeq && frameSeq.delivered !== order.length) throw new Error(`captured ${frameSeq.delivered} of ${order.length} ${columns ? 'sheet rows' : 'frames'}`);
    if (chunkSeq && (got.chunks !== total || chunkSeq.delivered !== total)) {
      throw new Error(`webcodecs: encoded ${got.chunks} chunks (${chunkSeq.delivered} delivered) for ${total} frames`);
    }
    if (encoder) {
      await encoder.finish();
      encoder = null;
      plan.live.encoder = null;
    }
    return { video: plan.videoTemp, sprite, still };
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
    await session.page.evaluate(captureExpression({ token: stillToken, indices: [index], type: 'image/png', quality: 1, window: 1 }));
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
}

/** Renders single frames as lossless PNGs in memory (thumbnails, tests): for a few frames only. */
export async function renderStills(req: StillsRequest): Promise<Buffer[]> {
  return req.pool.use(async (session) => {
    const token = randomBytes(9).toString('base64url');
    const out = new Map<number, Buffer>();
    const off = session.server.onFrames(token, async (i, b) => {
      out.set(i, b);
    });
    try {
      await session.page.evaluate(
        `window.renderStage.load(${JSON.stringify(req.build)}, ${JSON.stringify(stageOptions(req.options, req.transparent ?? false))})`,
      );
      for (const index of req.indices) {
        req.signal?.throwIfAborted();
        await session.page.evaluate(captureExpression({ token, indices: [index], type: 'image/png', quality: 1, window: 1 }));
      }
      return req.indices.map((i) => out.get(i)!);
    } finally {
      off();
      await session.page.evaluate('window.renderStage && window.renderStage.dispose()').catch(() => {});
    }
  }, req.signal);
}
