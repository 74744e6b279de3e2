/**
 * The whole render of one build to files: an MP4 turntable, a WebP sprite sheet and/or a hero
 * still (the turn itself: turn.ts). Files are written under temporary names and renamed into
 * place only when complete.
 */
import path from 'node:path';
import { writeScreenshot, writeScreenshotRaw, type ScreenshotFormat } from '../encode/screenshot.js';
import { layoutFor } from '../model/sprite-layout.js';
import { SpriteSheetWriter } from '../encode/sprite-sheet.js';
import { startVideoEncoder } from '../encode/video-encoder.js';
import type { RenderSession } from './browser-pool.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';
import type { SpriteLayout } from '../model/sprite-layout.js';
import { captureRequest } from '../model/capture-contract.js';
import { callStage } from './call-stage.js';
import { runTurn, withModelSource, withScratch, type TurnRequest } from './turn.js';
import { finishTurn, type FinalFile, type TurnReport } from './turn-result.js';

/** Which files to produce; by default the main result of options.format plus a WebP still. */
export interface RenderOutputs {
  video?: boolean;
  sprite?: boolean;
  screenshot?: ScreenshotFormat | false;
}

/** A whole render: the turn's request, which files to write, and (tests) fewer frames. */
export interface RenderRequest extends TurnRequest {
  outputs?: RenderOutputs;
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

/** The files written and the turn's report (videoPath: how video.mp4 was encoded). */
export interface RenderResult extends TurnReport {
  files: RenderedFile[];
  sprite: SpriteLayout | null;
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
  return withScratch(session, req, async (scratch) => {
    const total = Math.min(o.frames, req.frameLimit ?? o.frames);
    const indices = Array.from({ length: total }, (_, i) => i);
    const spriteLayout = outputs.sprite
      ? total === o.frames && o.sprite
        ? o.sprite
        : layoutFor(total, o.width, o.height)
      : null;
    if (!outputs.video && !spriteLayout && !outputs.screenshot)
      throw new Error('nothing to render: no output selected');
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

    const finals: FinalFile<RenderedFile>[] = [];
    const file = (
      kind: RenderedFile['kind'],
      name: string,
      mime: string,
      size: { width: number; height: number },
    ): RenderedFile => ({ kind, path: path.join(req.outDir, name), bytes: 0, mime, ...size });
    if (videoTemp && videoPath) finals.push([videoTemp, file('video', 'video.mp4', 'video/mp4', videoSize)]);
    if (done.sheet) {
      const temp = scratch.tempFor('sprite.webp');
      await done.sheet.writeWebp(temp);
      const l = done.sheet.layout;
      finals.push([
        temp,
        file('sprite', 'sprite.webp', 'image/webp', {
          width: l.columns * l.frame_width,
          height: l.rows * l.frame_height,
        }),
      ]);
    }
    if (outputs.screenshot) {
      const name = `screenshot.${outputs.screenshot}`;
      const temp = scratch.tempFor(name);
      if (done.still) await writeScreenshotRaw(done.still, o.width, o.height, outputs.screenshot, temp);
      else
        await writeScreenshot(
          await captureStill(session, scratch.token, info.heroFrame, req.signal),
          outputs.screenshot,
          temp,
        );
      finals.push([
        temp,
        file('screenshot', name, `image/${outputs.screenshot}`, { width: o.width, height: o.height }),
      ]);
    }
    const { files, report } = await finishTurn(session, req, turn, finals);
    return { files, sprite: done.sheet ? done.sheet.layout : null, ...report };
  });
}

/** Renders and captures one lossless frame (the hero angle). */
async function captureStill(
  session: RenderSession,
  token: string,
  index: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  signal?.throwIfAborted();
  let still: Buffer | null = null;
  const stillToken = `${token}-still`;
  const off = session.server.onFrames(stillToken, async (_i, b) => {
    still = b;
  });
  try {
    await callStage(
      session.page,
      '__rfRun',
      captureRequest({ token: stillToken, indices: [index], type: 'image/png', quality: 1, window: 1 }),
    );
  } finally {
    off();
  }
  if (!still) throw new Error('the hero frame was not captured');
  return still;
}
