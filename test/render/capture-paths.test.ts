/**
 * The capture/encode paths of renderBuild with real Chromium, ffmpeg and sharp at small sizes:
 * WebCodecs H.264 (remuxed by ffmpeg) and its automatic x264 fallback, both in 1 s segments, raw-pixel sprite
 * sheets and the hero still read during the turn, each checked against lossless stills.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { h264Bitrate, h264Codecs } from '../../src/encode/h264-config.js';
import { VIDEO_SEGMENT_FRAMES } from '../../src/model/render-defaults.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import type { RenderResult } from '../../src/render/render-build.js';
import { videoFramesFor } from '../../src/render/turn.js';
import { findFfmpeg, findFfprobe } from '../../src/render/tool-paths.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { ffprobeJson } from '../helpers/media.js';
import { diffFraction } from '../helpers/pixels.js';
import { useTestEngine } from '../helpers/engine.js';
import { useTempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const engine = useTestEngine();
let ffmpegPath: string;
const dir = useTempDir('capture-test-');
let webcodecs: boolean;
const build = demoStageBuild('DEMO-GLASS');
const small = (format: 'video' | 'sprite') =>
  resolveRenderOptions({ format, width: 256, height: 256, profile: 'fast' });

beforeAll(async () => {
  ffmpegPath = (await findFfmpeg({})).path;
  // whether this Chromium encodes H.264 with WebCodecs (Debian's does; SwiftShader-only builds may not)
  webcodecs = await engine.pool.use(async ({ page }) => {
    const codecs = h264Codecs(256, 256, 30);
    return !!(await page.evaluate(
      `window.__rfH264Codec(256, 256, 30, ${h264Bitrate(256, 256, 30)}, ${JSON.stringify(codecs)})`,
    ));
  });
});

async function probe(file: string): Promise<Record<string, string | number> & { duration: number }> {
  const info = await ffprobeJson(file);
  return { ...info.streams[0]!, duration: Number(info.format.duration) };
}

/** Indices of a video's key frames. */
async function keyFrames(file: string): Promise<number[]> {
  const ffprobe = (await findFfprobe({})).path;
  const { stdout } = await run(ffprobe, [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'frame=key_frame',
    '-of',
    'json',
    file,
  ]);
  const frames = (JSON.parse(stdout) as { frames: Array<{ key_frame: number }> }).frames;
  return frames.flatMap((f, i) => (f.key_frame ? [i] : []));
}

/** Frame `n` of a video as PNG, decoded by ffmpeg. */
async function videoFrame(file: string, n: number): Promise<Buffer> {
  const { stdout } = await run(
    ffmpegPath,
    [
      '-v',
      'error',
      '-i',
      file,
      '-vf',
      `select=eq(n\\,${n})`,
      '-frames:v',
      '1',
      '-f',
      'image2pipe',
      '-c:v',
      'png',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  return stdout;
}

async function expectGoodMp4(r: RenderResult, frames: number) {
  const video = r.files.find((f) => f.kind === 'video')!;
  const s = await probe(video.path);
  expect(s.codec_name).toBe('h264');
  expect(s.pix_fmt).toBe('yuv420p');
  expect([s.width, s.height]).toEqual([256, 256]);
  expect(Number(s.nb_read_frames)).toBe(frames);
  expect(s.avg_frame_rate).toBe('30/1');
  expect(s.duration).toBeCloseTo(frames / 30, 2);
  const bytes = await readFile(video.path);
  expect(bytes.indexOf('moov')).toBeGreaterThan(0);
  expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
  // one independently encoded segment per VIDEO_SEGMENT_FRAMES, each opening with a keyframe
  expect(await keyFrames(video.path)).toEqual(
    Array.from({ length: Math.ceil(frames / VIDEO_SEGMENT_FRAMES) }, (_, k) => k * VIDEO_SEGMENT_FRAMES),
  );
  // the pixels are the scene's: frame 5 of the video against a lossless render of frame 5
  const [still] = await engine.stills({ build, options: small('video'), indices: [5] });
  expect(await diffFraction(await videoFrame(video.path, 5), still!, 16)).toBeLessThan(0.05);
  return video;
}

/** Replaces the page's VideoEncoder for one render (restored afterwards). */
async function withEncoderStub<T>(stub: string, fn: () => Promise<T>): Promise<T> {
  await engine.pool.use(({ page }) =>
    page.evaluate(`window.__realVE = window.__realVE || window.VideoEncoder; ${stub}`),
  );
  try {
    return await fn();
  } finally {
    await engine.pool.use(({ page }) => page.evaluate('window.VideoEncoder = window.__realVE'));
  }
}

describe('video paths', () => {
  it('encodes with WebCodecs where the browser can, and reports the path', async () => {
    const r = await engine.render({
      build,
      options: small('video'),
      outDir: path.join(dir(), 'auto'),
      outputs: { video: true },
    });
    expect(r.videoPath).toBe(webcodecs ? 'webcodecs' : 'x264');
    await expectGoodMp4(r, 120);
  });

  it('reads the frame itself (no canvas VideoFrame) and keeps limited-range yuv420p', async (ctx) => {
    if (!webcodecs) ctx.skip();
    const r = await engine.render({
      build,
      options: small('video'),
      outDir: path.join(dir(), 'range'),
      outputs: { video: true },
      frameLimit: 12,
    });
    const s = await probe(r.files[0]!.path);
    // an RGB frame converts to the range its colour space names: tv (limited), as players expect
    expect(s).toMatchObject({ pix_fmt: 'yuv420p', color_range: 'tv', color_space: 'bt709' });
  });

  it('hands the canvas itself to the encoder when asked (the GPU default): the same picture, limited range', async (ctx) => {
    if (!webcodecs) ctx.skip();
    const o = resolveRenderOptions({ format: 'video', width: 320, height: 240, profile: 'fast' });
    const render = (videoFrames: 'pixels' | 'canvas') =>
      engine.render({
        build,
        options: o,
        outDir: path.join(dir(), videoFrames),
        outputs: { video: true },
        frameLimit: 8,
        videoFrames,
      });
    const pixels = (await render('pixels')).files[0]!.path;
    const canvas = (await render('canvas')).files[0]!.path;
    expect(await probe(canvas)).toMatchObject({
      pix_fmt: 'yuv420p',
      color_range: 'tv',
      width: 320,
      height: 240,
      nb_read_frames: '8',
    });
    // upright and the same scene: an upside-down or shifted frame differs in most pixels
    for (const n of [0, 7])
      expect(await diffFraction(await videoFrame(canvas, n), await videoFrame(pixels, n), 16)).toBeLessThan(0.02);
    expect(videoFramesFor('gpu')).toBe('canvas');
    expect(videoFramesFor('egl')).toBe('pixels');
    expect(videoFramesFor('swiftshader')).toBe('pixels');
  });

  it('crops an odd-sized frame to the even video size', async () => {
    const o = resolveRenderOptions({ format: 'video', width: 257, height: 201, profile: 'fast' });
    const r = await engine.render({
      build,
      options: o,
      outDir: path.join(dir(), 'odd'),
      outputs: { video: true },
      frameLimit: 6,
    });
    const video = r.files[0]!.path;
    const s = await probe(video);
    expect([s.width, s.height, Number(s.nb_read_frames)]).toEqual([256, 200, 6]);
    // upright and unscaled: the video's frame 3 is the top-left 256x200 of a lossless 257x201 render
    const [still] = await engine.stills({ build, options: o, indices: [3] });
    const cropped = await sharp(still!).extract({ left: 0, top: 0, width: 256, height: 200 }).png().toBuffer();
    expect(await diffFraction(await videoFrame(video, 3), cropped, 16)).toBeLessThan(0.05);
  });

  it('encodes JPEG frames through x264 when asked', async () => {
    const r = await engine.render({
      build,
      options: small('video'),
      outDir: path.join(dir(), 'x264'),
      outputs: { video: true },
      videoEncoder: 'x264',
    });
    expect(r.videoPath).toBe('x264');
    await expectGoodMp4(r, 120);
  });

  it('falls back to x264 when the page has no VideoEncoder', async () => {
    const r = await withEncoderStub('window.VideoEncoder = undefined', () =>
      engine.render({
        build,
        options: small('video'),
        outDir: path.join(dir(), 'none'),
        outputs: { video: true },
        frameLimit: 12,
      }),
    );
    expect(r.videoPath).toBe('x264');
    await expectGoodMp4(r, 12);
  });

  it('redoes the video with x264 when the encoder fails mid-way', async (ctx) => {
    if (!webcodecs) ctx.skip();
    // an encoder that reports an error after a few frames, as a broken codec would
    const stub = `window.VideoEncoder = class extends window.__realVE {
      constructor(init) { super(init); this.__fail = init.error; this.__n = 0; }
      encode(frame, opts) { if (++this.__n === 4) setTimeout(() => this.__fail(new Error('stub failure'))); return super.encode(frame, opts); }
    }`;
    const r = await withEncoderStub(stub, () =>
      engine.render({
        build,
        options: small('video'),
        outDir: path.join(dir(), 'broken'),
        outputs: { video: true },
        frameLimit: 12,
      }),
    );
    expect(r.videoPath).toBe('x264');
    await expectGoodMp4(r, 12);
  });
});

describe('raw-pixel sprites and stills', () => {
  it('places every frame upright in its cell, matching lossless renders', async () => {
    const o = small('sprite');
    const r = await engine.render({
      build,
      options: o,
      outDir: path.join(dir(), 'sprite'),
      outputs: { sprite: true },
      frameLimit: 14,
    });
    const sheet = r.files[0]!.path;
    const stills = await engine.stills({ build, options: o, indices: [0, 13] });
    for (const [k, i] of [0, 13].entries()) {
      const cell = await sharp(sheet)
        .extract({ left: (i % 12) * 256, top: Math.floor(i / 12) * 256, width: 256, height: 256 })
        .png()
        .toBuffer();
      expect(await diffFraction(cell, stills[k]!, 16)).toBeLessThan(0.02);
    }
  });

  it('reads sheet rows as the exact pixels of lossless renders', async () => {
    const o = small('sprite');
    // a chunk keeps its rows lossless (rows.png): every cell must be the frame's pixels exactly
    const r = await engine.renderChunk({ build, options: o, outDir: path.join(dir(), 'rows'), start: 0, end: 24 });
    const rows = r.pieces.find((p) => p.kind === 'rows')!.path;
    const indices = [0, 7, 11, 12, 23];
    const stills = await engine.stills({ build, options: o, indices });
    for (const [k, i] of indices.entries()) {
      const cell = await sharp(rows)
        .extract({ left: (i % 12) * 256, top: Math.floor(i / 12) * 256, width: 256, height: 256 })
        .png()
        .toBuffer();
      expect(await diffFraction(cell, stills[k]!, 0)).toBe(0);
    }
  });

  it('writes the screenshot from the hero frame read during the turn', async () => {
    const o = small('video');
    const r = await engine.render({
      build,
      options: o,
      outDir: path.join(dir(), 'still'),
      outputs: { video: true, screenshot: 'png' },
      frameLimit: 3,
    });
    const png = await readFile(r.files.find((f) => f.kind === 'screenshot')!.path);
    const [still] = await engine.stills({ build, options: o, indices: [0] });
    // both lossless: identical pixels
    expect(await diffFraction(png, still!, 0)).toBe(0);
  });

  it('renders just the still when only a screenshot is asked for', async () => {
    const r = await engine.render({
      build,
      options: small('video'),
      outDir: path.join(dir(), 'only-still'),
      outputs: { screenshot: 'webp' },
    });
    expect(r.files.map((f) => f.kind)).toEqual(['screenshot']);
    expect(r.videoPath).toBeUndefined();
    expect((await sharp(r.files[0]!.path).metadata()).format).toBe('webp');
  });
});

describe('network isolation', () => {
  it('lets the page reach the stage server and nothing else', async () => {
    const results = await engine.pool.use(({ page }) =>
      page.evaluate(`Promise.all(['/', 'http://example.com/', 'http://93.184.215.14/', 'https://1.1.1.1/'].map((u) =>
        fetch(u, { signal: AbortSignal.timeout(10000) }).then((r) => 'ok ' + r.status, () => 'blocked')))`),
    );
    expect(results).toEqual(['ok 200', 'blocked', 'blocked', 'blocked']);
  });
});
