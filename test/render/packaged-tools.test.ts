/**
 * The install-anywhere path: system Chromium/ffmpeg/ffprobe hidden by config (systemTools off,
 * no PATH), so the binaries shipped in the optional npm packages are used; a real sprite and a
 * real video are rendered through them, and the slower backend is stated.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { checkChromium } from '../../src/doctor/tools-check.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { findChromium, findFfmpeg, findFfprobe } from '../../src/render/tool-paths.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';

const run = promisify(execFile);

describe('npm-packaged Chromium, ffmpeg and ffprobe (system binaries hidden)', () => {
  let dir: string;
  let engine: RenderEngine | null = null;
  // an empty environment: no PATH, no CHROMIUM_PATH/FFMPEG_PATH; the system lookup is off
  const cfg = () => loadConfig({ systemTools: false, dataDir: dir }, {});

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rf-packaged-'));
  });
  afterAll(async () => {
    await engine?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the packaged binaries only', async () => {
    const [chromium, ffmpeg, ffprobe] = await Promise.all([findChromium(cfg()), findFfmpeg(cfg()), findFfprobe(cfg())]);
    for (const t of [chromium, ffmpeg, ffprobe]) expect(t.source).toBe('package');
    expect(ffmpeg.path).toContain(`node_modules${path.sep}@ffmpeg-installer${path.sep}`);
    expect(ffprobe.path).toContain(`node_modules${path.sep}@ffprobe-installer${path.sep}`);
    expect(chromium.path).not.toMatch(/^\/usr\//);
    // and the system ones are what a default config finds here
    expect((await findFfmpeg(loadConfig({}, { PATH: process.env.PATH }))).source).toBe('system');
  });

  it('renders a sprite and a video through them, on SwiftShader, and says it is slower', async () => {
    engine = await createRenderEngine(cfg());
    const info = await engine.info();
    expect(info).toMatchObject({ backend: 'swiftshader', chromiumSource: 'package', ffmpegSource: 'package' });
    expect(info.note).toMatch(
      /npm-packaged Chromium with SwiftShader, about 3x slower than a system Chromium with Mesa over EGL/,
    );

    const build = demoStageBuild('DEMO-GLASS');
    const sprite = await engine.render({
      build,
      options: resolveRenderOptions({ format: 'sprite', width: 256, height: 256, profile: 'fast' }),
      outDir: path.join(dir, 'sprite'),
    });
    const sheet = sprite.files.find((f) => f.kind === 'sprite')!;
    const meta = await sharp(sheet.path).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 3072, 1536]);
    // frames differ: the build turns
    const cell = (i: number) =>
      sharp(sheet.path)
        .extract({ left: i * 256, top: 0, width: 256, height: 256 })
        .raw()
        .toBuffer();
    expect((await cell(0)).equals(await cell(3))).toBe(false);

    const video = await engine.render({
      build,
      options: resolveRenderOptions({ format: 'video', width: 256, height: 256, profile: 'fast' }),
      outDir: path.join(dir, 'video'),
    });
    const mp4 = video.files.find((f) => f.kind === 'video')!;
    const ffprobe = (await findFfprobe(cfg())).path;
    const { stdout } = await run(ffprobe, ['-v', 'error', '-count_frames', '-show_streams', '-of', 'json', mp4.path]);
    const stream = JSON.parse(stdout).streams[0];
    expect(stream).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 256, height: 256 });
    expect(Number(stream.nb_read_frames)).toBe(120);
  }, 180_000);

  it('doctor names the packaged Chromium', async () => {
    const row = await checkChromium(cfg());
    expect(row.status).toBe('ok');
    expect(row.detail).toMatch(/\(npm package\): Chromium \d+/);
  });
});
