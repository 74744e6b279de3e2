/**
 * TEST AND BENCH ONLY: a render engine without Chromium, so one machine can host tens of worker
 * processes (bench:control-plane measures the control plane: queue, claims, database, API, not
 * pixels). Each frame costs a fixed `frameMs` of waiting (no CPU), and every frame is one solid
 * colour; the files are real and valid all the same (MP4 from ffmpeg, WebP/PNG from sharp), so
 * a chunked render goes through the real assemble step (encode/assemble.ts) and its checks.
 * Outputs depend only on their shape (size, fps, frame count), so each process encodes a shape
 * once and copies it after that: the per-render cost stays the fixed frame cost plus a file write.
 * Selected by `fakeStageMs` (RENDER_FARM_FAKE_STAGE_MS) in jobs/worker.ts; never the default.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Config } from '../config.js';
import { videoSegmentFrames } from '../model/chunk-unit.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';
import { startVideoEncoder } from '../encode/video-encoder.js';
import type { EngineInfo, RenderEngine } from './engine.js';
import type { BrowserPool } from './browser-pool.js';
import type { RenderedFile, RenderResult } from './render-build.js';
import type { ChunkPiece, ChunkResult } from './render-chunk.js';
import type { RenderProgress } from './turn.js';

const run = promisify(execFile);

/** The one colour of every fake frame (a mid blue: visibly not a real render). */
const COLOUR = { r: 48, g: 112, b: 176 };
const COLOUR_HEX = '0x3070b0';
/** progress is reported (and the abort signal checked) at least this often */
const STEP_MS = 100;

export interface FakeEngineOptions {
  /** waited per frame: the stand-in for drawing and encoding it */
  frameMs: number;
  log?: (line: string) => void;
}

/** The bytes of one output shape, made once per process. */
const made = new Map<string, Promise<Buffer>>();
function once(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
  let p = made.get(key);
  if (!p) {
    p = make();
    // a failure is not cached: the next render tries again
    p.catch(() => made.delete(key));
    made.set(key, p);
  }
  return p;
}

/** Even frame size, as H.264 needs (the real encoder and assemble crop the same way). */
function videoSize(o: ResolvedRenderOptions): { width: number; height: number } {
  return { width: o.width - (o.width % 2), height: o.height - (o.height % 2) };
}

/** Waits frames x frameMs in steps, reporting progress, and stops at once on abort. */
async function spend(
  frames: number,
  frameMs: number,
  signal: AbortSignal | undefined,
  onProgress: ((p: RenderProgress) => void) | undefined,
): Promise<number> {
  const started = performance.now();
  const perStep = Math.max(1, Math.floor(STEP_MS / Math.max(frameMs, 1e-3)));
  for (let done = 0; done < frames; ) {
    signal?.throwIfAborted();
    const n = Math.min(perStep, frames - done);
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, n * frameMs);
      signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
    signal?.throwIfAborted();
    done += n;
    const s = (performance.now() - started) / 1000;
    onProgress?.({ stage: 'render', frame: done, total: frames, fps: s > 0 ? done / s : 0 });
  }
  return performance.now() - started;
}

export async function createFakeEngine(
  cfg: Pick<Config, 'ffmpegPath' | 'ffprobePath' | 'searchPath' | 'systemTools'>,
  opts: FakeEngineOptions,
): Promise<RenderEngine> {
  const { findFfmpeg, findFfprobe } = await import('./tool-paths.js');
  const ffmpeg = await findFfmpeg(cfg, cfg.searchPath);
  const ffprobe = await findFfprobe(cfg, cfg.searchPath).catch((err: unknown) => err as Error);
  const frameMs = opts.frameMs;

  /** Raw H.264 (Annex B) of `frames` solid frames: one independently encoded segment, as the real chunks hold. */
  const segment = (o: ResolvedRenderOptions, frames: number) => {
    const { width, height } = videoSize(o);
    return once(`seg:${width}x${height}@${o.fps}:${frames}`, async () => {
      const { stdout } = await run(
        ffmpeg.path,
        [
          '-v',
          'error',
          '-f',
          'lavfi',
          '-i',
          `color=c=${COLOUR_HEX}:s=${width}x${height}:r=${o.fps}`,
          '-frames:v',
          String(frames),
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-pix_fmt',
          'yuv420p',
          '-f',
          'h264',
          'pipe:1',
        ],
        { encoding: 'buffer', maxBuffer: 64 << 20 },
      );
      return stdout;
    });
  };
  /** Frames [start, end) as whole segments (a chunk's borders fall on segment borders). */
  const h264 = async (o: ResolvedRenderOptions, start: number, end: number) => {
    const seg = videoSegmentFrames(o);
    const parts: Buffer[] = [];
    for (let f = start; f < end; f += seg) parts.push(await segment(o, Math.min(seg, end - f)));
    return Buffer.concat(parts);
  };
  const mp4 = (o: ResolvedRenderOptions, scratch: string) => {
    const size = videoSize(o);
    return once(`mp4:${size.width}x${size.height}@${o.fps}:${o.frames}`, async () => {
      const out = path.join(scratch, `fake-${process.pid}-${Date.now().toString(36)}.mp4`);
      const encoder = startVideoEncoder(ffmpeg.path, { input: 'h264', fps: o.fps, ...size, output: out });
      try {
        await encoder.write(await h264(o, 0, o.frames));
        await encoder.finish();
        return await fs.readFile(out);
      } finally {
        encoder.kill();
        await fs.rm(out, { force: true });
      }
    });
  };
  const solid = (width: number, height: number, format: 'webp' | 'png') =>
    once(`${format}:${width}x${height}`, () => {
      const img = sharp({ create: { width, height, channels: 4, background: { ...COLOUR, alpha: 1 } } });
      return (format === 'webp' ? img.webp({ quality: 80 }) : img.png()).toBuffer();
    });
  const sheet = (o: ResolvedRenderOptions) => {
    if (!o.sprite) throw new Error('fake stage: a sprite render without a sprite layout');
    return solid(o.sprite.columns * o.sprite.frame_width, o.sprite.rows * o.sprite.frame_height, 'webp');
  };
  const file = async (dir: string, name: string, bytes: Buffer) => {
    const p = path.join(dir, name);
    await fs.writeFile(p, bytes);
    return p;
  };
  const info: EngineInfo = {
    backend: 'egl',
    glRenderer: 'fake stage (solid colours, test/bench only)',
    chromium: 'none (fake stage)',
    ffmpeg: ffmpeg.path,
    chromiumSource: 'config',
    ffmpegSource: ffmpeg.source,
    note: `fake stage: every frame is one solid colour after ${frameMs} ms (RENDER_FARM_FAKE_STAGE_MS, test/bench only)`,
    gpu: { found: false, detail: 'fake stage: no GPU probed' },
  };
  const timings = (ms: number) => ({ load: 0, render: ms, encode: 0, total: ms });
  const fps = (frames: number, ms: number) => Math.round((frames / Math.max(ms / 1000, 1e-3)) * 100) / 100;

  const render: RenderEngine['render'] = async (req) => {
    const o = req.options;
    const ms = await spend(o.frames, frameMs, req.signal, req.onProgress);
    const files: RenderedFile[] = [];
    const add = async (
      kind: RenderedFile['kind'],
      name: string,
      bytes: Buffer,
      mime: string,
      width: number,
      height: number,
    ) => {
      files.push({ kind, path: await file(req.outDir, name, bytes), bytes: bytes.length, mime, width, height });
    };
    if (o.format === 'video') {
      const size = videoSize(o);
      await add('video', 'video.mp4', await mp4(o, req.outDir), 'video/mp4', size.width, size.height);
    } else {
      const bytes = await sheet(o);
      await add(
        'sprite',
        'sprite.webp',
        bytes,
        'image/webp',
        o.sprite!.columns * o.sprite!.frame_width,
        o.sprite!.rows * o.sprite!.frame_height,
      );
    }
    await add('screenshot', 'screenshot.webp', await solid(o.width, o.height, 'webp'), 'image/webp', o.width, o.height);
    const result: RenderResult = {
      files,
      sprite: o.format === 'sprite' ? o.sprite! : null,
      timings: timings(ms),
      backend: info.backend,
      glRenderer: info.glRenderer,
      framesPerSecond: fps(o.frames, ms),
      frames: o.frames,
      warnings: [],
    };
    return result;
  };

  const renderChunk: RenderEngine['renderChunk'] = async (req) => {
    const o = req.options;
    const { start, end } = req;
    if (!(start >= 0 && end > start && end <= o.frames))
      throw new RangeError(`fake stage: frames [${start}, ${end}) outside the turn of ${o.frames}`);
    const ms = await spend(end - start, frameMs, req.signal, req.onProgress);
    const pieces: ChunkPiece[] = [];
    const add = async (kind: ChunkPiece['kind'], name: string, bytes: Buffer, mime: string) => {
      pieces.push({ kind, path: await file(req.outDir, name, bytes), mime, bytes: bytes.length });
    };
    if (o.format === 'video') {
      await add('h264', 'video.h264', await h264(o, start, end), 'video/h264');
    } else {
      if (!o.sprite) throw new Error('fake stage: a sprite render without a sprite layout');
      const rows = Math.ceil(end / o.sprite.columns) - Math.floor(start / o.sprite.columns);
      await add(
        'rows',
        'rows.png',
        await solid(o.sprite.columns * o.sprite.frame_width, rows * o.sprite.frame_height, 'png'),
        'image/png',
      );
    }
    // the hero still belongs to the first chunk here (any one chunk must carry it)
    if (start === 0) await add('screenshot', 'screenshot.webp', await solid(o.width, o.height, 'webp'), 'image/webp');
    const result: ChunkResult = {
      pieces,
      frames: end - start,
      framesPerSecond: fps(end - start, ms),
      timings: timings(ms),
      backend: info.backend,
      glRenderer: info.glRenderer,
      warnings: [],
    };
    return result;
  };

  opts.log?.(info.note!);
  return {
    render,
    renderChunk,
    tools: {
      ffmpeg: ffmpeg.path,
      get ffprobe(): string {
        if (ffprobe instanceof Error) throw ffprobe;
        return ffprobe.path;
      },
    },
    stills: async (req) => Promise.all(req.indices.map(() => solid(req.options.width, req.options.height, 'png'))),
    info: async () => info,
    get pool(): BrowserPool {
      throw new Error('fake stage: there is no browser (RENDER_FARM_FAKE_STAGE_MS is for tests and benches)');
    },
    close: async () => {},
  };
}
