/**
 * The farm's assemble step: joins the pieces of chunked renders (renderChunk) into the files
 * a whole render writes, with no browser. Video: the chunks' raw H.264 segments, concatenated
 * in frame order, go through the same remux command (buildFfmpegArgs, input 'h264') as a whole
 * render's, so the MP4 is byte-identical. Sprites: the chunks' lossless rows go into the same
 * SpriteSheetWriter and WebP encode. verifyVideo checks an assembled MP4 before it is published.
 */
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { SpriteLayout } from '../model/sprite-layout.js';
import { SpriteSheetWriter } from './sprite-sheet.js';
import { startVideoEncoder } from './video-encoder.js';

const run = promisify(execFile);

/** Written next to `output` and renamed into place only when complete. */
function partialOf(output: string): string {
  return `${output}.${process.pid}.${Date.now().toString(36)}.partial`;
}

/** Remuxes the H.264 pieces (in frame order) into `output`, exactly as a whole render does. */
export async function assembleVideo(o: {
  ffmpegPath: string;
  segments: string[];
  fps: number;
  width: number;
  height: number;
  output: string;
}): Promise<void> {
  if (o.segments.length === 0) throw new Error('assembleVideo: no segments');
  const temp = partialOf(o.output);
  const encoder = startVideoEncoder(o.ffmpegPath, {
    input: 'h264',
    fps: o.fps,
    width: o.width,
    height: o.height,
    output: temp,
  });
  try {
    for (const file of o.segments) {
      for await (const chunk of createReadStream(file)) await encoder.write(chunk as Buffer);
    }
    await encoder.finish();
    await rename(temp, o.output);
  } catch (err) {
    encoder.kill();
    await rm(temp, { force: true });
    throw err;
  }
}

/** Builds the WebP sheet from the chunks' rows.png pieces (each starting at sheet row `firstRow`). */
export async function assembleSprite(o: {
  layout: SpriteLayout;
  rows: Array<{ firstRow: number; path: string }>;
  output: string;
}): Promise<void> {
  const { layout } = o;
  const sheet = new SpriteSheetWriter(layout);
  const width = layout.columns * layout.frame_width;
  const rowBytes = width * layout.frame_height * 4;
  for (const piece of o.rows) {
    // RGBA as the page sent it: addRow gets the very bytes a whole render's page posted
    const { data, info } = await sharp(piece.path).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (info.width !== width || info.height % layout.frame_height !== 0 || info.channels !== 4) {
      throw new Error(
        `${piece.path}: ${info.width}x${info.height}x${info.channels} is not whole sheet rows of ${width}x${layout.frame_height} RGBA`,
      );
    }
    const count = info.height / layout.frame_height;
    for (let k = 0; k < count; k++) sheet.addRow(piece.firstRow + k, data.subarray(k * rowBytes, (k + 1) * rowBytes));
  }
  const temp = partialOf(o.output);
  try {
    // writeWebp checks that every frame of the layout was placed
    await sheet.writeWebp(temp);
    await rename(temp, o.output);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

export interface VideoCheck {
  frames: number;
  durationS: number;
  width: number;
  height: number;
  /** seam step (last -> first frame) over the larger of the first and last steps */
  loopRatio: number;
}

/** Width the loop check decodes at: enough to see a wrong frame, cheap to compare. */
const CHECK_WIDTH = 160;

function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/**
 * Checks an assembled MP4: ffprobe's decoded frame count and duration must match, and the loop
 * seam (last -> first frame) must look like any other step of the turn: chunks joined in the
 * wrong order or a missing chunk show up there. Throws an Error saying what is wrong.
 */
export async function verifyVideo(o: {
  ffprobePath: string;
  ffmpegPath: string;
  file: string;
  frames: number;
  fps: number;
}): Promise<VideoCheck> {
  const { stdout } = await run(o.ffprobePath, [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=nb_read_frames,width,height:format=duration',
    '-of',
    'json',
    o.file,
  ]);
  const probed = JSON.parse(stdout) as {
    streams?: Array<{ nb_read_frames?: string; width?: number; height?: number }>;
    format?: { duration?: string };
  };
  const s = probed.streams?.[0];
  if (!s) throw new Error(`${o.file}: no video stream`);
  const frames = Number(s.nb_read_frames);
  const durationS = Number(probed.format?.duration);
  const expected = o.frames / o.fps;
  if (frames !== o.frames) throw new Error(`${o.file}: ${frames} frames, expected ${o.frames}`);
  // half a frame of slack: containers round durations
  if (!(Math.abs(durationS - expected) <= 0.5 / o.fps))
    throw new Error(`${o.file}: duration ${durationS} s, expected ${expected} s`);
  if (frames < 3) throw new Error(`${o.file}: ${frames} frames are too few for a loop check`);

  const picks = [0, 1, frames - 2, frames - 1];
  const select = picks.map((n) => `eq(n\\,${n})`).join('+');
  const decoded = await run(
    o.ffmpegPath,
    [
      '-v',
      'error',
      '-i',
      o.file,
      '-vf',
      `select=${select},scale=${CHECK_WIDTH}:-2,format=gray`,
      '-vsync',
      '0',
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  const raw = decoded.stdout;
  const size = raw.length / picks.length;
  if (!Number.isInteger(size) || size === 0 || size % CHECK_WIDTH !== 0)
    throw new Error(`${o.file}: decoded ${raw.length} bytes for ${picks.length} check frames`);
  const [f0, f1, fb, fl] = picks.map((_, k) => raw.subarray(k * size, (k + 1) * size)) as [
    Buffer,
    Buffer,
    Buffer,
    Buffer,
  ];
  const step = Math.max(meanAbsDiff(f0, f1), meanAbsDiff(fb, fl));
  const seam = meanAbsDiff(fl, f0);
  const loopRatio = Math.round((seam / Math.max(step, 1e-6)) * 1000) / 1000;
  // a seam like any other step (x3, +2 grey levels for compression noise on a near-still turn)
  if (seam > 3 * step + 2) {
    throw new Error(
      `${o.file}: the loop seam jumps (last -> first frame differ by ${seam.toFixed(2)} grey levels, other steps ${step.toFixed(2)}): chunks missing or out of order?`,
    );
  }
  return { frames, durationS, width: Number(s.width), height: Number(s.height), loopRatio };
}
