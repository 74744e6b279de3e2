/**
 * assembleVideo and verifyVideo with real ffmpeg/ffprobe, no browser: a synthetic turn (a
 * pattern that moves one step a frame and comes back to the start after the last) encoded in
 * x264 segments as the renderer's fallback does, then joined right and wrong.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleVideo, verifyVideo } from '../../src/encode/assemble.js';
import { startH264File } from '../../src/encode/h264-file.js';
import { SegmentedX264Encoder } from '../../src/encode/video-encoder.js';
import { findFfmpeg, findFfprobe } from '../../src/render/tool-paths.js';

const W = 128;
const H = 96;
const FPS = 30;
const FRAMES = 120;
const SEGMENT = 30;
let dir: string;
let ffmpegPath: string;
let ffprobePath: string;
/** the four segments' raw H.264, in frame order */
const segments: string[] = [];

/** Frame i of a seamless turn: stripes shifted by 2 px a frame, 240 px (one period) a turn. */
function frame(i: number): Promise<Buffer> {
  const rgb = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = Math.round(128 + 100 * Math.sin((2 * Math.PI * (x + 2 * i)) / 240) * Math.cos((2 * Math.PI * y) / 96));
      rgb.fill(v, (y * W + x) * 3, (y * W + x) * 3 + 3);
    }
  }
  return sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assemble-test-'));
  ffmpegPath = (await findFfmpeg({})).path;
  ffprobePath = (await findFfprobe({})).path;
  // one segment per file, as four chunks of one segment each would deliver them
  for (let s = 0; s < FRAMES / SEGMENT; s++) {
    const file = path.join(dir, `s${s}.h264`);
    const enc = new SegmentedX264Encoder(
      ffmpegPath,
      { input: 'jpeg', fps: FPS, width: W, height: H, segmentFrames: SEGMENT },
      startH264File(file),
    );
    for (let i = s * SEGMENT; i < (s + 1) * SEGMENT; i++) await enc.write(await frame(i));
    await enc.finish();
    segments.push(file);
  }
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const verify = (file: string, frames = FRAMES) => verifyVideo({ ffprobePath, ffmpegPath, file, frames, fps: FPS });

describe('assembleVideo + verifyVideo', () => {
  it('joins segments into an MP4 that verifies, the same bytes for the same segments', async () => {
    const output = path.join(dir, 'ok.mp4');
    await assembleVideo({ ffmpegPath, segments, fps: FPS, width: W, height: H, output });
    const check = await verify(output);
    expect(check).toMatchObject({ frames: 120, durationS: 4, width: W, height: H });
    expect(check.loopRatio).toBeLessThan(3);
    const again = path.join(dir, 'again.mp4');
    await assembleVideo({ ffmpegPath, segments, fps: FPS, width: W, height: H, output: again });
    expect((await readFile(again)).equals(await readFile(output))).toBe(true);
  });

  it('rejects a wrong frame count', async () => {
    const output = path.join(dir, 'short.mp4');
    await assembleVideo({ ffmpegPath, segments: segments.slice(0, 3), fps: FPS, width: W, height: H, output });
    await expect(verify(output)).rejects.toThrow(/short\.mp4: 90 frames, expected 120/);
  });

  it('rejects a broken loop: segments joined in the wrong order', async () => {
    const output = path.join(dir, 'swapped.mp4');
    const [a, b, c, d] = segments;
    await assembleVideo({ ffmpegPath, segments: [b!, a!, c!, d!], fps: FPS, width: W, height: H, output });
    await expect(verify(output)).rejects.toThrow(/loop seam jumps .*out of order/);
  });
});
