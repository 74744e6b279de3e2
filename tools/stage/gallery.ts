/**
 * `npm run gallery`: renders the demo builds and a fixed set of real OpenDB builds
 * (gallery-builds.ts) on the real farm stage, cinematic, studio scene, at the hero angle and
 * three more angles (window side and front square on, rear three-quarter), and writes one contact sheet to
 * docs/images/render-gallery.webp. It also prints triangles and draw calls per build.
 *
 *   npm run gallery [-- --out docs/images/render-gallery.webp] [--size 720x540] [--only DEMO-GLASS,...]
 *        [--opendb ../shared/opendb/sample/open-db] [--scene studio] [--profile cinematic]
 *        [--frames-dir DIR]   also writes every frame as a lossless PNG (<build>-<frame>.png), for
 *                             tools/stage/gallery-diff.ts to compare two stages image by image
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { loadConfig } from '../../src/config.js';
import { createRenderEngine } from '../../src/render/engine.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import type { Profile, Scene } from '../../src/model/render-defaults.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { toStageOptions, type StageInfo } from '../../src/model/stage-contract.js';
import { callStage } from '../../src/render/call-stage.js';
import { openDbBuilds, openDbSampleDir, type GalleryBuild } from './gallery-builds.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const out = path.resolve(flag('--out') ?? path.join(root, 'docs', 'images', 'render-gallery.webp'));
const [rw, rh] = (flag('--size') ?? '720x540').split('x').map(Number) as [number, number];
const only = flag('--only')?.split(',');
const scene = (flag('--scene') ?? 'studio') as Scene;
const profile = (flag('--profile') ?? 'cinematic') as Profile;
const framesDir = flag('--frames-dir');

/** Sheet layout: per build a hero tile with three angle thumbnails under it and a caption. */
const HERO = { w: 480, h: 360 };
const THUMB = { w: 160, h: 120 };
const CAPTION = 30;
const COLUMNS = 4;
const FRAMES = 72;
/** hero; the window side square on; the front square on; the rear three-quarter (window side) */
const ANGLES = [0, 8, 62, 18];

const builds: GalleryBuild[] = [
  ...DEMO_BUILDS.map((d) => ({ name: `${d.shareCode}: ${d.name}`, build: demoStageBuild(d.shareCode) })),
  ...openDbBuilds(flag('--opendb') ?? openDbSampleDir(root)).map((b) => ({ ...b, name: `OpenDB: ${b.name}` })),
].filter((b) => !only || only.some((o) => b.name.startsWith(o)));

// the project's engine and GL policy, configured like every other command
const engine = await createRenderEngine(loadConfig());
const pool = engine.pool;
const options = toStageOptions({
  ...resolveRenderOptions({ format: 'sprite', width: rw, height: rh, profile, scene }),
  frames: FRAMES,
});

interface Rendered {
  name: string;
  info: StageInfo;
  frames: Buffer[];
}

const rendered: Rendered[] = [];
try {
  for (const b of builds) {
    const t0 = performance.now();
    const r = await pool.use(async ({ page }) => {
      const info = await callStage(page, 'renderStage.load', b.build, options);
      const frames: Buffer[] = [];
      for (const i of ANGLES) {
        const url = await page.evaluate((k) => {
          window.renderStage!.renderFrame(k);
          return window.renderStage!.canvas().toDataURL('image/png');
        }, i);
        frames.push(Buffer.from(url.split(',')[1]!, 'base64'));
      }
      await page.evaluate(() => window.renderStage!.dispose());
      return { info, frames };
    });
    rendered.push({ name: b.name, ...r });
    if (framesDir) {
      mkdirSync(framesDir, { recursive: true });
      const slug = b.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
      for (const [k, png] of r.frames.entries()) writeFileSync(path.join(framesDir, `${slug}-${ANGLES[k]}.png`), png);
    }
    const warn = r.info.warnings.length ? `; warnings: ${r.info.warnings.join(' | ')}` : '';
    console.log(
      `${b.name}: ${r.info.triangles} triangles, ${r.info.drawCalls ?? '?'} draw calls, ${((performance.now() - t0) / 1000).toFixed(1)} s${warn}`,
    );
  }
} finally {
  await pool.close();
}

const tileW = HERO.w;
const tileH = HERO.h + THUMB.h + CAPTION;
const rows = Math.ceil(rendered.length / COLUMNS);
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const layers: { input: Buffer; left: number; top: number }[] = [];
for (const [i, r] of rendered.entries()) {
  const left = (i % COLUMNS) * tileW;
  const top = Math.floor(i / COLUMNS) * tileH;
  layers.push({ input: await sharp(r.frames[0]!).resize(HERO.w, HERO.h).png().toBuffer(), left, top });
  for (let k = 1; k < ANGLES.length; k++) {
    layers.push({
      input: await sharp(r.frames[k]!).resize(THUMB.w, THUMB.h).png().toBuffer(),
      left: left + (k - 1) * THUMB.w,
      top: top + HERO.h,
    });
  }
  const caption = `<svg width="${tileW}" height="${CAPTION}"><rect width="100%" height="100%" fill="#1d1f23"/><text x="10" y="20" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="13" fill="#e8eaed">${escape(r.name)} · ${r.info.triangles.toLocaleString('en')} tris · ${r.info.drawCalls ?? '?'} draws</text></svg>`;
  layers.push({ input: Buffer.from(caption), left, top: top + HERO.h + THUMB.h });
}
mkdirSync(path.dirname(out), { recursive: true });
await sharp({ create: { width: COLUMNS * tileW, height: rows * tileH, channels: 3, background: '#1d1f23' } })
  .composite(layers)
  .webp({ quality: 78, effort: 5 })
  .toFile(out);
console.log(
  `wrote ${path.relative(process.cwd(), out)} (${rendered.length} builds, ${COLUMNS * tileW}x${rows * tileH})`,
);
