/**
 * Renders one build to files: an MP4 turntable, a WebP sprite sheet and/or a hero still.
 * Frames are rendered and captured in the page and streamed to the encoders as they arrive
 * (the page renders frame i+1 while Node encodes frame i); nothing holds every frame.
 * Files are written under temporary names and renamed into place only when complete.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StageBuild, StageInfo, StageOptions } from '../../farm/src/contract.js';
import { writeScreenshot, type ScreenshotFormat } from '../encode/screenshot.js';
import { layoutFor } from '../encode/sprite-layout.js';
import { SpriteSheetWriter } from '../encode/sprite-sheet.js';
import { startVideoEncoder, type VideoEncoder } from '../encode/video-encoder.js';
import type { GlBackendName } from './chromium-args.js';
import type { BrowserPool, RenderSession } from './browser-pool.js';
import { FrameSequencer } from './frame-sequencer.js';
import type { ResolvedRenderOptions, SpriteLayout } from './options.js';
import { abortExpression, captureExpression, type PageCaptureRequest } from './page-capture.js';

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
}

/** JPEG 0.95 intermediates: cheapest to encode in the page and decode in ffmpeg/sharp, visually lossless. */
const FRAME_QUALITY = 0.95;
const IN_FLIGHT = 3;

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

async function renderWith(session: RenderSession, req: RenderRequest): Promise<RenderResult> {
  const { page, server } = session;
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
  let encoder: VideoEncoder | null = null;
  const unregister: Array<() => void> = [];
  const onAbort = () => {
    encoder?.kill();
    void page.evaluate(abortExpression('render cancelled')).catch(() => {});
  };
  req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    req.signal?.throwIfAborted();
    await mkdir(req.outDir, { recursive: true });
    req.onProgress?.({ stage: 'load', frame: 0, total: 0, fps: 0 });
    const info = (await page.evaluate(
      `window.renderStage.load(${JSON.stringify(req.build)}, ${JSON.stringify(stageOptions(o, transparent))})`,
    )) as StageInfo;
    const loaded = performance.now();

    const total = Math.min(o.frames, req.frameLimit ?? o.frames);
    const indices = Array.from({ length: total }, (_, i) => i);
    // H.264 in yuv420p needs even dimensions
    const videoSize = { width: o.width - (o.width % 2), height: o.height - (o.height % 2) };
    const sprite = outputs.sprite ? new SpriteSheetWriter(total === o.frames && o.sprite ? o.sprite : layoutFor(total, o.width, o.height), transparent) : null;
    const videoTemp = outputs.video ? tempFor('video.mp4') : null;
    if (videoTemp) {
      encoder = startVideoEncoder(req.ffmpegPath, { input: 'jpeg', fps: o.fps, ...videoSize, output: videoTemp });
    }
    if (!encoder && !sprite && !outputs.screenshot) throw new Error('nothing to render: no output selected');
    const renderStart = performance.now();
    if (encoder || sprite) {
      const video = encoder;
      const sequencer = new FrameSequencer(indices, async (index, bytes, position) => {
        req.signal?.throwIfAborted();
        await Promise.all([video?.write(bytes), sprite?.add(index, bytes)]);
        const secs = (performance.now() - renderStart) / 1000;
        req.onProgress?.({ stage: 'render', frame: position + 1, total, fps: secs > 0 ? (position + 1) / secs : 0 });
      });
      unregister.push(server.onFrames(token, (i, b) => sequencer.push(i, b)));
      const capture: PageCaptureRequest = {
        token,
        indices,
        type: transparent ? 'image/png' : 'image/jpeg',
        quality: FRAME_QUALITY,
        window: IN_FLIGHT,
      };
      await page.evaluate(captureExpression(capture));
      if (sequencer.delivered !== total) throw new Error(`captured ${sequencer.delivered} of ${total} frames`);
    }
    const rendered = performance.now();
    req.onProgress?.({ stage: 'encode', frame: total, total, fps: total / Math.max(1e-3, (rendered - renderStart) / 1000) });

    const finals: Array<[string, string]> = [];
    if (encoder && videoTemp) {
      await encoder.finish();
      encoder = null;
      finals.push([videoTemp, 'video.mp4']);
      files.push({ kind: 'video', path: path.join(req.outDir, 'video.mp4'), bytes: 0, mime: 'video/mp4', ...videoSize });
    }
    if (sprite) {
      const temp = tempFor('sprite.webp');
      await sprite.writeWebp(temp);
      finals.push([temp, 'sprite.webp']);
      const l = sprite.layout;
      files.push({ kind: 'sprite', path: path.join(req.outDir, 'sprite.webp'), bytes: 0, mime: 'image/webp', width: l.columns * l.frame_width, height: l.rows * l.frame_height });
    }
    if (outputs.screenshot) {
      const still = await captureStill(session, token, info.heroFrame, req.signal);
      const name = `screenshot.${outputs.screenshot}`;
      const temp = tempFor(name);
      await writeScreenshot(still, outputs.screenshot, temp);
      finals.push([temp, name]);
      files.push({ kind: 'screenshot', path: path.join(req.outDir, name), bytes: 0, mime: `image/${outputs.screenshot}`, width: o.width, height: o.height });
    }
    req.signal?.throwIfAborted();
    for (const [temp, name] of finals) await rename(temp, path.join(req.outDir, name));
    for (const f of files) f.bytes = (await stat(f.path)).size;
    const done = performance.now();
    const result: RenderResult = {
      files,
      sprite: sprite ? sprite.layout : null,
      timings: { load: Math.round(loaded - started), render: Math.round(rendered - renderStart), encode: Math.round(done - rendered), total: Math.round(done - started) },
      backend: session.backend,
      glRenderer: session.gl.renderer,
      framesPerSecond: total > 0 ? Math.round((total / Math.max(1e-3, (rendered - renderStart) / 1000)) * 100) / 100 : 0,
      frames: total,
      warnings: info.warnings ?? [],
    };
    req.onProgress?.({ stage: 'done', frame: total, total, fps: result.framesPerSecond });
    return result;
  } catch (err) {
    // a cancel surfaces as whatever broke first (page, ffmpeg); report the cancel itself
    if (req.signal?.aborted) throw req.signal.reason;
    throw err;
  } finally {
    req.signal?.removeEventListener('abort', onAbort);
    unregister.forEach((u) => u());
    encoder?.kill();
    await Promise.all(temps.map((t) => rm(t, { force: true })));
    await page.evaluate('window.renderStage && window.renderStage.dispose()').catch(() => {});
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
