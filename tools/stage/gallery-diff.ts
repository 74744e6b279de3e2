/**
 * `npx tsx tools/stage/gallery-diff.ts BEFORE_DIR AFTER_DIR`: compares two `npm run gallery --
 * --frames-dir` outputs image by image (same file names): mean absolute difference per channel
 * (0-255) and SSIM (ffmpeg's ssim filter, all planes), one line per image and the mean, so a
 * change to the look comes with numbers next to the contact sheets.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { findFfmpeg } from '../../src/render/tool-paths.js';
import { ssim } from '../../bench/device/ssim.js';

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: gallery-diff.ts BEFORE_DIR AFTER_DIR (frames of npm run gallery -- --frames-dir)');
  process.exit(2);
}
const ffmpeg = (await findFfmpeg({})).path;

/** Mean absolute difference per RGB channel value. */
async function meanAbs(a: string, b: string): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((f) => sharp(f).removeAlpha().raw().toBuffer()));
  if (x!.length !== y!.length) throw new Error(`${path.basename(a)}: sizes differ`);
  let sum = 0;
  for (let i = 0; i < x!.length; i++) sum += Math.abs(x![i]! - y![i]!);
  return sum / x!.length;
}

const names = readdirSync(before)
  .filter((f) => f.endsWith('.png'))
  .sort();
const rows: Array<{ image: string; mean_abs: number; ssim: number }> = [];
for (const name of names) {
  const a = path.join(before, name);
  const b = path.join(after, name);
  rows.push({
    image: name,
    mean_abs: +(await meanAbs(a, b)).toFixed(3),
    ssim: +(await ssim(ffmpeg, a, b, path.basename(a))).toFixed(5),
  });
}
console.table(rows);
const mean = (k: 'mean_abs' | 'ssim') => rows.reduce((s, r) => s + r[k], 0) / Math.max(1, rows.length);
console.log(
  `${rows.length} images: mean abs ${mean('mean_abs').toFixed(3)} (max ${Math.max(...rows.map((r) => r.mean_abs)).toFixed(3)}), SSIM mean ${mean('ssim').toFixed(5)} (min ${Math.min(...rows.map((r) => r.ssim)).toFixed(5)})`,
);
