/** SSIM of two images by ffmpeg's ssim filter (all planes, RGB), for the kit's and the gallery's picture checks. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `name` says which image an error is about. */
export async function ssim(ffmpeg: string, a: string, b: string, name = a): Promise<number> {
  const res = await run(ffmpeg, [
    '-hide_banner',
    '-i',
    a,
    '-i',
    b,
    '-lavfi',
    '[0:v]format=rgb24[x];[1:v]format=rgb24[y];[x][y]ssim',
    '-f',
    'null',
    '-',
  ]);
  const all = /All:([\d.]+)/.exec(res.stderr)?.[1];
  if (!all) throw new Error(`no SSIM from ffmpeg for ${name}`);
  return Number(all);
}
