/**
 * The whole render of one build to files: an MP4 turntable, a WebP sprite sheet and/or a hero
 * still (the turn itself: turn.ts). Files are written under temporary names and renamed into
 * place only when complete.
 */
import { rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeScreenshot, writeScreenshotRaw, type ScreenshotFormat } from '../encode/screenshot.js';
import { layoutFor } from '../model/sprite-layout.js';
import { SpriteSheetWriter } from '../encode/sprite-sheet.js';
import { startVideoEncoder } from '../encode/video-encoder.js';
import type { GlBackendName } from './chromium-args.js';
import type { RenderSession } from './browser-pool.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';
import type { SpriteLayout } from '../model/sprite-layout.js';
import { captureRequest } from './page-capture.js';
import { callStage } from './call-stage.js';
import { fpsOf, runTurn, withModelSource, withScratch, type RenderOutputs, type RenderRequest, type VideoPath } from './turn.js';

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

/** Default outputs for a format. */
export function outputsFor(options: ResolvedRenderOptions): RenderOutputs {
  return options.format === 'video' ? { video: true, screenshot: 'webp' } : { sprite: true, screenshot: 'webp' };
}

/** Renders `req.build`; resolves with the files written into `req.outDir`. */
export async function renderBuild(req: RenderRequest): Promise<RenderResult> {
  return req.pool.use((session) => withModelSource(session, req.models, () => renderWith(session, req)), req.signal);
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
