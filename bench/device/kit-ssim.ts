/**
 * `npx tsx bench/device/kit-ssim.ts GPU_FILES CPU_FILES [LABEL_GPU] [LABEL_CPU]`: whether the
 * GPU kit's outputs are the same picture as a CPU render of the same request. Both folders hold
 * kit.ts --keep outputs (`<label>-<case>.mp4|.webp`): the GPU run's from the device, the CPU's
 * made here (kit.ts --gl egl, Mesa llvmpipe). Frames 0 and 36 of each case are cut out (the
 * video decoded by ffmpeg, the sprite's cells by sharp) and compared: SSIM (ffmpeg's ssim
 * filter, all planes) and the mean absolute difference per channel value (0-255).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { spriteLayout } from '../../src/model/sprite-layout.js';
import { findFfmpeg } from '../../src/render/tool-paths.js';
import { ssim } from './ssim.js';

const run = promisify(execFile);
const [gpuDir, cpuDir, gpuLabel = 'gpu-auto', cpuLabel = 'egl'] = process.argv.slice(2);
if (!gpuDir || !cpuDir) {
  console.error('usage: kit-ssim.ts GPU_FILES CPU_FILES [GPU_LABEL] [CPU_LABEL]');
  process.exit(2);
}
const ffmpeg = (await findFfmpeg({})).path;
const tmp = await mkdtemp(path.join(os.tmpdir(), 'kit-ssim-'));
const FRAMES = [0, 36];

/** Frame `n` of an output as a PNG file. */
async function frame(file: string, n: number, out: string): Promise<string> {
  if (file.endsWith('.mp4')) {
    await run(ffmpeg, ['-v', 'error', '-y', '-i', file, '-vf', `select=eq(n\\,${n})`, '-frames:v', '1', out]);
    return out;
  }
  const layout = spriteLayout(512, 512, resolveRenderOptions({ format: 'sprite' }).frameQuality);
  const left = (n % layout.columns) * layout.frame_width;
  const top = Math.floor(n / layout.columns) * layout.frame_height;
  await sharp(file, { limitInputPixels: false })
    .extract({ left, top, width: layout.frame_width, height: layout.frame_height })
    .png()
    .toFile(out);
  return out;
}

async function meanAbs(a: string, b: string): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((f) => sharp(f).removeAlpha().raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < x!.length; i++) sum += Math.abs(x![i]! - y![i]!);
  return sum / x!.length;
}

try {
  const rows: Array<Record<string, unknown>> = [];
  for (const name of (await readdir(gpuDir)).filter((f) => f.startsWith(`${gpuLabel}-`)).sort()) {
    const other = path.join(cpuDir, name.replace(`${gpuLabel}-`, `${cpuLabel}-`));
    for (const n of FRAMES) {
      const a = await frame(path.join(gpuDir, name), n, path.join(tmp, `g-${n}-${name}.png`));
      const b = await frame(other, n, path.join(tmp, `c-${n}-${name}.png`));
      rows.push({
        output: name,
        frame: n,
        ssim: +(await ssim(ffmpeg, a, b)).toFixed(4),
        mean_abs: +(await meanAbs(a, b)).toFixed(2),
      });
    }
  }
  console.table(rows);
  if (rows.length === 0) throw new Error(`no ${gpuLabel}-* outputs in ${gpuDir}`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
