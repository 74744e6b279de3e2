/**
 * The capture loop of the stage page (`__rfRun`): renders frames in order and, per frame, any of
 *   - a read of the frame straight into its cell of a sprite-sheet row (readTopDown); each
 *     full row is POSTed raw: sprites;
 *   - an H.264 chunk from WebCodecs' VideoEncoder, fed with a VideoFrame of the frame's
 *     pixels as readTopDown read them: video (h264-segments.ts);
 *   - a `canvas.toBlob` image (JPEG/PNG): the x264 fallback, transparent frames, stills;
 *   - raw RGBA of the hero frame (gl.readPixels, rows bottom-up): the lossless screenshot.
 * Everything is POSTed as a Blob body to the loopback stage server (upload.ts). Up to `window`
 * uploads are in flight; the server acknowledges one only once its consumer took it (bounds memory).
 *
 * How the frame leaves the GPU decides most of the capture cost: on the CPU backends readPixels
 * beat `new VideoFrame(canvas)` (which makes the GPU process copy and convert each frame) and
 * 2D drawImage + getImageData; per-frame uploads with CDP request interception were the trap,
 * hence one upload per sheet row, Blob bodies, and network isolation by Chromium flags instead.
 * The figures: docs/benchmarks.md, "Capture paths".
 * The video is a run of independent segments (a fresh VideoEncoder per VIDEO_SEGMENT_FRAMES),
 * so farm chunks of whole segments concatenate to the whole render's stream; see
 * webcodecsReproducible (src/encode/h264-config.ts) for the sizes where Chromium's bytes are reproducible.
 *
 * Everything that reads the canvas happens synchronously right after renderFrame: a canvas
 * without preserveDrawingBuffer is cleared once the page yields.
 */
import type { PageRunRequest, PageRunResult } from '../../../src/model/capture-contract.js';
import type { StageApi } from '../../../src/model/stage-contract.js';
import { h264Segments } from './h264-segments.js';
import { readRaw, readTopDown } from './read-pixels.js';
import { post, uploads } from './upload.js';

/** Set by abortRun: the running capture stops at its next frame with this as its error. */
let abortReason: string | null = null;

/** Makes a running capture stop at its next frame (`__rfAbortRun`). */
export function abortRun(reason: string): void {
  abortReason = reason;
}

/** The stage's WebGL2 context (the stage refuses to start without WebGL2: stage.ts). */
export function stageGl(canvas: HTMLCanvasElement): WebGL2RenderingContext {
  const gl = canvas.getContext('webgl2');
  if (!gl) throw new Error('the stage canvas has no WebGL2 context');
  return gl;
}

/** Runs one capture (`__rfRun`): renders req.indices in order and sends what req asks for. */
export async function runCapture(stage: StageApi, req: PageRunRequest): Promise<PageRunResult> {
  abortReason = null;
  const canvas = stage.canvas();
  const gl = stageGl(canvas);
  const frames = uploads(req.window);
  const stills = new Set(req.stills);
  const h264 = req.h264;
  const video = h264 ? h264Segments(req.token, h264) : null;
  // sprite rows are composed in the page (each frame read straight into its cell of the row)
  // and sent as one raw strip per row: per-frame transfers cost more (see the header)
  const sheet =
    req.frames && req.frames.type === 'sheet'
      ? {
          width: canvas.width * req.frames.columns,
          row: null as Uint8Array<ArrayBuffer> | null,
          columns: req.frames.columns,
        }
      : null;
  const image = req.frames && req.frames.type !== 'sheet' ? req.frames : null;
  // the video's frames, read into CPU memory by us (see readTopDown), cropped to the even size
  const pixels = h264 && !h264.fromCanvas ? new Uint8Array(canvas.width * canvas.height * 4) : null;
  // nobody looks at the page: a displayed canvas is composited after every frame, which with
  // preserveDrawingBuffer copies the whole drawing buffer; measured 13 ms CPU a 1080p frame
  // (llvmpipe), ~0 with display:none. Reads (readPixels, toBlob, VideoFrame) are unaffected.
  const display = canvas.style.display;
  canvas.style.display = 'none';
  try {
    let position = 0;
    for (const index of req.indices) {
      if (abortReason) throw new Error(abortReason);
      stage.renderFrame(index);
      // synchronous reads first, while the drawing buffer is certainly intact
      let vf: VideoFrame | null = null;
      if (video && h264?.fromCanvas) {
        vf = new VideoFrame(canvas, {
          timestamp: video.timestamp(index),
          duration: video.tick,
          alpha: 'discard',
          visibleRect: { x: 0, y: 0, width: h264.width, height: h264.height },
        });
      } else if (video && h264 && pixels) {
        readTopDown(gl, pixels, 0, canvas.width);
        vf = new VideoFrame(pixels, {
          format: 'RGBX',
          codedWidth: canvas.width,
          codedHeight: canvas.height,
          visibleRect: { x: 0, y: 0, width: h264.width, height: h264.height },
          timestamp: video.timestamp(index),
          duration: video.tick,
          // the encoder converts RGB to YUV in the range this names: limited, i.e. yuv420p tv
          // range as the canvas path gave (full range came out yuvj420p); pixels measured equal
          // to the canvas path's within 0.002 SSIM against lossless stills
          colorSpace: { primaries: 'bt709', transfer: 'iec61966-2-1', matrix: 'rgb', fullRange: false },
        });
      }
      const still = stills.has(index) ? readRaw(gl) : null;
      const blob = image
        ? new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, image.type, image.quality))
        : null;
      let row: Uint8Array<ArrayBuffer> | null = null;
      if (sheet) {
        // cells by frame index: a farm chunk starting at a row boundary composes the same rows;
        // a fresh row each time (the last one's upload may be in flight), black where no frame is
        const col = index % sheet.columns;
        if (!sheet.row) sheet.row = new Uint8Array(sheet.width * canvas.height * 4);
        readTopDown(gl, sheet.row, col * canvas.width * 4, sheet.width);
        if (col === sheet.columns - 1 || position === req.indices.length - 1) {
          row = sheet.row;
          sheet.row = null;
        }
      }
      if (still) await frames.add(() => post('/frames/' + req.token + '-still/' + index, still));
      if (sheet && row) {
        const n = Math.floor(index / sheet.columns);
        const strip = row;
        await frames.add(() => post('/frames/' + req.token + '/' + n, strip));
      }
      if (blob) {
        await frames.add(() =>
          blob.then((b) => {
            if (!b) throw new Error('canvas.toBlob returned no image (canvas too large?)');
            return post('/frames/' + req.token + '/' + index, b);
          }),
        );
      }
      if (video && vf) await video.encode(vf, position, index);
      position++;
    }
    const chunks = video ? await video.finish() : 0;
    await frames.drain();
    return { frames: req.indices.length, chunks };
  } finally {
    canvas.style.display = display;
    if (video) video.close();
  }
}
