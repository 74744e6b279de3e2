/**
 * The capture loop that runs inside the stage page: renders frames in order and, per frame,
 * any of
 *   - a read of the frame straight into its cell of a sprite-sheet row (readTopDown); each
 *     full row is POSTed raw: sprites;
 *   - an H.264 chunk from WebCodecs' VideoEncoder, fed with a VideoFrame of the frame's
 *     pixels as readTopDown read them: video;
 *   - a `canvas.toBlob` image (JPEG/PNG): the x264 fallback, transparent frames, stills;
 *   - raw RGBA of the hero frame (gl.readPixels, rows bottom-up): the lossless screenshot.
 * Everything is POSTed as a Blob body to the loopback stage server. Up to `window` uploads
 * are in flight; the server acknowledges one only once its consumer took it (bounds memory).
 *
 * How the frame leaves the GPU decides most of the capture cost: on the CPU backends readPixels
 * beat `new VideoFrame(canvas)` (which makes the GPU process copy and convert each frame) and
 * 2D drawImage + getImageData; per-frame uploads with CDP request interception were the trap,
 * hence one upload per sheet row, Blob bodies, and network isolation by Chromium flags instead.
 * The figures: docs/benchmarks.md, "Capture paths".
 * The video is a run of independent segments (a fresh VideoEncoder per VIDEO_SEGMENT_FRAMES),
 * so farm chunks of whole segments concatenate to the whole render's stream; see
 * webcodecsReproducible (h264-config.ts) for the sizes where Chromium's bytes are reproducible.
 *
 * Everything that reads the canvas happens synchronously right after renderFrame: a canvas
 * without preserveDrawingBuffer is cleared once the page yields.
 *
 * Kept as plain JavaScript source: functions passed to page.evaluate would be rewritten by
 * the TypeScript loader (helpers such as __name that do not exist in the page). The source is
 * injected once (browser-pool.ts); Node calls the helpers it installs through callStage
 * (call-stage.ts), typed by PageHelpers below.
 */
import type { StageBuild, StageOptions } from '../model/stage-contract.js';

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
  frames: null | { type: 'sheet'; columns: number } | { type: 'image/jpeg' | 'image/png' | 'image/webp'; quality: number };
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

/** One batch of stills for `__rfStillsBatch` (batch-stills.ts): `capture` is a run request without token and indices. */
export interface PageBatchRequest {
  token: string;
  builds: readonly StageBuild[];
  options: StageOptions;
  capture: Omit<PageRunRequest, 'token' | 'indices'>;
}

/**
 * The helpers these sources install on `window`, as callStage (call-stage.ts) calls them.
 * `__rfStillsBatch` and `__rfAbortBatch` exist once batch-stills.ts has injected its source.
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
  __rfStillsBatch(req: PageBatchRequest): Promise<Array<{ index: number; error: string }>>;
  /** makes a running batch (and its capture) stop */
  __rfAbortBatch(reason: string): void;
}

/** Installs `window.__rfRun`, `__rfH264Codec`, `__rfAbortRun`, `__rfTimeFrames` and `__rfContextLost` in the page (idempotent). */
export const PAGE_CAPTURE_SOURCE = `
(() => {
  if (window.__rfRun) return;
  window.__rfAbort = null;

  // bodies go as Blobs: puppeteer enables CDP's Network domain, which copies a typed-array body
  // into its request events (through the DevTools pipe, see the header); a Blob's is not
  const send = async (url, body) => {
    const res = await fetch(url, { method: 'POST', body: body instanceof Blob ? body : new Blob([body]) });
    if (!res.ok) throw new Error((await res.text()) || url + ' refused: HTTP ' + res.status);
  };
  // a large typed array goes in pieces of at most PIECE bytes, one after another: Chromium's blob
  // store refuses blobs past its memory quota ("Failed to fetch"), seen with two or three 89 MB
  // sprite rows (1365 px frames) in flight at once on a 24 GiB machine; pieces keep an upload
  // window's bytes at window x PIECE
  const PIECE = 16 * 1024 * 1024;
  const post = async (url, body) => {
    if (body instanceof Blob || body.byteLength <= PIECE) return send(url, body);
    for (let at = 0; at < body.byteLength; at += PIECE) {
      await send(url + '?offset=' + at + '&total=' + body.byteLength, body.subarray(at, Math.min(at + PIECE, body.byteLength)));
    }
  };

  // at most limit uploads at once; add() waits for room (backpressure from Node)
  const uploads = (limit) => {
    const inflight = new Set();
    let failure = null;
    return {
      async add(work) {
        if (failure) throw failure;
        const p = work().catch((err) => { failure = failure || err; });
        inflight.add(p);
        p.finally(() => inflight.delete(p));
        while (inflight.size >= limit) await Promise.race(inflight);
        if (failure) throw failure;
      },
      async drain() {
        await Promise.all(inflight);
        if (failure) throw failure;
      },
    };
  };

  // the drawn frame's RGBA top-down into into[offset..], rows rowLength pixels apart (a frame
  // of a sheet row, or a whole frame): the canvas is blitted upside down into a renderbuffer of
  // ours and read from there. A plain readPixels is cheap on the CPU; the reads it replaces
  // (VideoFrame(canvas), 2D drawImage) made Chromium's GPU process convert or copy the frame,
  // measured 55 ms CPU a 720p frame (see the header). Leaves three.js's GL state as it was.
  const flip = { fb: null, rb: null, w: 0, h: 0 };
  const readTopDown = (gl, into, offset, rowLength) => {
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    if (!flip.fb || flip.w !== w || flip.h !== h) {
      if (flip.fb) { gl.deleteFramebuffer(flip.fb); gl.deleteRenderbuffer(flip.rb); }
      const rbWas = gl.getParameter(gl.RENDERBUFFER_BINDING);
      const fbWas = gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING);
      flip.rb = gl.createRenderbuffer();
      gl.bindRenderbuffer(gl.RENDERBUFFER, flip.rb);
      gl.renderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, w, h);
      flip.fb = gl.createFramebuffer();
      gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, flip.fb);
      gl.framebufferRenderbuffer(gl.DRAW_FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, flip.rb);
      gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, fbWas);
      gl.bindRenderbuffer(gl.RENDERBUFFER, rbWas);
      flip.w = w;
      flip.h = h;
    }
    const readWas = gl.getParameter(gl.READ_FRAMEBUFFER_BINDING);
    const drawWas = gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING);
    const pbo = gl.getParameter(gl.PIXEL_PACK_BUFFER_BINDING);
    const scissor = gl.isEnabled(gl.SCISSOR_TEST);
    const rowWas = gl.getParameter(gl.PACK_ROW_LENGTH);
    if (scissor) gl.disable(gl.SCISSOR_TEST);
    if (pbo) gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, flip.fb);
    gl.blitFramebuffer(0, 0, w, h, 0, h, w, 0, gl.COLOR_BUFFER_BIT, gl.NEAREST);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, flip.fb);
    gl.pixelStorei(gl.PACK_ROW_LENGTH, rowLength === w ? 0 : rowLength);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, into, offset);
    gl.pixelStorei(gl.PACK_ROW_LENGTH, rowWas);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, readWas);
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, drawWas);
    if (pbo) gl.bindBuffer(gl.PIXEL_PACK_BUFFER, pbo);
    if (scissor) gl.enable(gl.SCISSOR_TEST);
  };

  // the drawn frame's RGBA, rows bottom-up; leaves three.js's GL bindings as they were
  const readRaw = (gl) => {
    const gl2 = typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext;
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const pixels = new Uint8Array(w * h * 4);
    const target = gl2 ? gl.READ_FRAMEBUFFER : gl.FRAMEBUFFER;
    const fb = gl.getParameter(gl2 ? gl.READ_FRAMEBUFFER_BINDING : gl.FRAMEBUFFER_BINDING);
    const pbo = gl2 ? gl.getParameter(gl.PIXEL_PACK_BUFFER_BINDING) : null;
    if (fb) gl.bindFramebuffer(target, null);
    if (pbo) gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    if (fb) gl.bindFramebuffer(target, fb);
    if (pbo) gl.bindBuffer(gl.PIXEL_PACK_BUFFER, pbo);
    return pixels;
  };

  // H.264 in segments of cfg.segmentFrames: each segment is encoded by a fresh VideoEncoder
  // (keyframe first, timestamps from the segment start) so its bytes depend only on its
  // frames, and a farm chunk of whole segments gives the bytes the whole render gives. A
  // segment starts at every index that is a multiple of segmentFrames (and at a run's start).
  const h264Encoder = (req) => {
    const cfg = req.h264;
    const sent = [];
    const closing = [];
    let failure = null;
    let total = 0;
    let wake = null;
    let current = null;
    const wakeUp = () => { const w = wake; wake = null; if (w) w(); };
    const fail = (err) => {
      failure = failure || new Error('webcodecs: ' + ((err && err.message) || String(err)));
      wakeUp();
    };
    const tick = Math.round(1e6 / cfg.fps);
    // chunks are numbered by their frame's position in the run (one chunk per frame, no B-frames)
    const open = (base) => {
      let n = 0;
      const encoder = new VideoEncoder({
        output: (chunk) => {
          const bytes = new Uint8Array(chunk.byteLength);
          chunk.copyTo(bytes);
          total++;
          sent.push(post('/frames/' + req.token + '-h264/' + (base + n++), bytes).catch(fail));
        },
        error: fail,
      });
      encoder.ondequeue = wakeUp;
      encoder.configure({
        codec: cfg.codec, width: cfg.width, height: cfg.height, framerate: cfg.fps, bitrate: cfg.bitrate,
        bitrateMode: 'variable', latencyMode: 'quality', avc: { format: 'annexb' },
      });
      return encoder;
    };
    const close = (encoder) => encoder.flush().catch(fail).finally(() => { if (encoder.state !== 'closed') encoder.close(); });
    return {
      // the frame's timestamp: its place in its segment
      timestamp: (index) => (index % cfg.segmentFrames) * tick,
      tick,
      // position: the frame's place in the run (numbers its chunk); index: its frame of the turn
      async encode(frame, position, index) {
        if (failure) { frame.close(); throw failure; }
        const first = !current || index % cfg.segmentFrames === 0;
        try {
          if (first) {
            // the previous segment flushes while this one encodes; one at a time behind it
            if (current) closing.push(close(current));
            while (closing.length > 1) await closing.shift();
            current = open(position);
          }
          current.encode(frame, { keyFrame: first });
        } catch (err) {
          fail(err);
        } finally {
          frame.close();
        }
        // one frame queued while the next renders: memory stays flat, the encoder never idles
        while (!failure && current.encodeQueueSize > 1) await new Promise((r) => { wake = r; });
        if (failure) throw failure;
      },
      async finish() {
        if (current) closing.push(close(current));
        current = null;
        await Promise.all(closing);
        await Promise.all(sent);
        if (failure) throw failure;
        return total;
      },
      close() {
        if (current && current.state !== 'closed') current.close();
      },
    };
  };

  // the first H.264 codec string this browser encodes at this size, or null (no WebCodecs, no H.264)
  window.__rfH264Codec = async (width, height, fps, bitrate, codecs) => {
    if (typeof VideoEncoder === 'undefined' || typeof VideoFrame === 'undefined') return null;
    for (const codec of codecs) {
      try {
        const s = await VideoEncoder.isConfigSupported({ codec, width, height, framerate: fps, bitrate, bitrateMode: 'variable', latencyMode: 'quality', avc: { format: 'annexb' } });
        if (s.supported) return codec;
      } catch {}
    }
    return null;
  };

  window.__rfAbortRun = (reason) => { window.__rfAbort = reason; };

  // a warm-up frame first (shader compiles), then the timed loop; one pixel read waits for the GPU
  window.__rfTimeFrames = (frames) => {
    const c = window.renderStage.canvas(), g = c.getContext('webgl2') || c.getContext('webgl');
    window.renderStage.renderFrame(0);
    g.readPixels(0, 0, 1, 1, g.RGBA, g.UNSIGNED_BYTE, new Uint8Array(4));
    const t0 = performance.now();
    for (let i = 0; i < frames; i++) window.renderStage.renderFrame(i);
    g.readPixels(0, 0, 1, 1, g.RGBA, g.UNSIGNED_BYTE, new Uint8Array(4));
    return (performance.now() - t0) / frames;
  };

  window.__rfContextLost = () => {
    const c = window.renderStage.canvas(), g = c.getContext('webgl2') || c.getContext('webgl');
    return !g || g.isContextLost();
  };

  window.__rfRun = async (req) => {
    window.__rfAbort = null;
    const stage = window.renderStage;
    const canvas = stage.canvas();
    const gl = canvas.getContext('webgl2') || canvas.getContext('webgl');
    const frames = uploads(req.window);
    const stills = new Set(req.stills);
    const video = req.h264 ? h264Encoder(req) : null;
    // sprite rows are composed in the page (each frame read straight into its cell of the row)
    // and sent as one raw strip per row: per-frame transfers cost more (see the header)
    let sheet = null;
    if (req.frames && req.frames.type === 'sheet') {
      sheet = { width: canvas.width * req.frames.columns, row: null, columns: req.frames.columns };
    }
    // the video's frames, read into CPU memory by us (see readTopDown), cropped to the even size
    const pixels = video && !req.h264.fromCanvas ? new Uint8Array(canvas.width * canvas.height * 4) : null;
    // nobody looks at the page: a displayed canvas is composited after every frame, which with
    // preserveDrawingBuffer copies the whole drawing buffer; measured 13 ms CPU a 1080p frame
    // (llvmpipe), ~0 with display:none. Reads (readPixels, toBlob, VideoFrame) are unaffected.
    const display = canvas.style.display;
    canvas.style.display = 'none';
    try {
      let position = 0;
      for (const index of req.indices) {
        if (window.__rfAbort) throw new Error(window.__rfAbort);
        stage.renderFrame(index);
        // synchronous reads first, while the drawing buffer is certainly intact
        let vf = null;
        if (video && req.h264.fromCanvas) {
          vf = new VideoFrame(canvas, {
            timestamp: video.timestamp(index), duration: video.tick, alpha: 'discard',
            visibleRect: { x: 0, y: 0, width: req.h264.width, height: req.h264.height },
          });
        } else if (video) {
          readTopDown(gl, pixels, 0, canvas.width);
          vf = new VideoFrame(pixels, {
            format: 'RGBX', codedWidth: canvas.width, codedHeight: canvas.height,
            visibleRect: { x: 0, y: 0, width: req.h264.width, height: req.h264.height },
            timestamp: video.timestamp(index), duration: video.tick,
            // the encoder converts RGB to YUV in the range this names: limited, i.e. yuv420p tv
            // range as the canvas path gave (full range came out yuvj420p); pixels measured equal
            // to the canvas path's within 0.002 SSIM against lossless stills
            colorSpace: { primaries: 'bt709', transfer: 'iec61966-2-1', matrix: 'rgb', fullRange: false },
          });
        }
        const still = stills.has(index) ? readRaw(gl) : null;
        const blob = req.frames && req.frames.type !== 'sheet'
          ? new Promise((resolve) => canvas.toBlob(resolve, req.frames.type, req.frames.quality))
          : null;
        let row = null;
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
        if (row) {
          const n = Math.floor(index / sheet.columns);
          await frames.add(() => post('/frames/' + req.token + '/' + n, row));
        }
        if (blob) {
          await frames.add(() => blob.then((b) => {
            if (!b) throw new Error('canvas.toBlob returned no image (canvas too large?)');
            return post('/frames/' + req.token + '/' + index, b);
          }));
        }
        if (vf) await video.encode(vf, position, index);
        position++;
      }
      const chunks = video ? await video.finish() : 0;
      await frames.drain();
      return { frames: req.indices.length, chunks };
    } finally {
      canvas.style.display = display;
      if (video) video.close();
    }
  };
})();
`;

/** A toBlob-only capture (lossless stills, tests) as a run request for `__rfRun`. */
export function captureRequest(req: PageCaptureRequest): PageRunRequest {
  return { token: req.token, indices: req.indices, frames: { type: req.type, quality: req.quality }, h264: null, stills: [], window: req.window };
}
