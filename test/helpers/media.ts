/** Real media checks: ffprobe stream info. */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { findFfprobe } from '../../src/render/tool-paths.js';

const run = promisify(execFile);

export interface ProbedVideo {
  codec: string;
  pixFmt: string;
  width: number;
  height: number;
  frames: number;
  duration: number;
  /** moov atom before mdat: playable while downloading */
  faststart: boolean;
}

/** ffprobe's streams (frames counted) and format of file, as its JSON. */
export async function ffprobeJson(
  file: string,
): Promise<{ streams: Record<string, string | number>[]; format: { duration: string } }> {
  const ffprobe = (await findFfprobe({})).path;
  const { stdout } = await run(ffprobe, [
    '-v',
    'error',
    '-count_frames',
    '-show_streams',
    '-show_format',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(stdout);
}

export async function probeVideo(file: string): Promise<ProbedVideo> {
  const j: any = await ffprobeJson(file);
  const v = j.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
  const boxes = await topLevelBoxes(file);
  const moov = boxes.indexOf('moov');
  const mdat = boxes.indexOf('mdat');
  return {
    codec: v.codec_name,
    pixFmt: v.pix_fmt,
    width: v.width,
    height: v.height,
    frames: Number(v.nb_read_frames),
    duration: Number(j.format.duration),
    faststart: moov >= 0 && mdat >= 0 && moov < mdat,
  };
}

/** The MP4's top-level box types in file order (size + type headers, 64-bit sizes included). */
export async function topLevelBoxes(file: string): Promise<string[]> {
  const buf = await fs.readFile(file);
  const types: string[] = [];
  let at = 0;
  while (at + 8 <= buf.length) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    if (size === 1) size = Number(buf.readBigUInt64BE(at + 8));
    else if (size === 0) size = buf.length - at;
    types.push(type);
    if (size < 8) break;
    at += size;
  }
  return types;
}
