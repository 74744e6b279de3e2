/**
 * The render engine end to end with real Chromium, ffmpeg and sharp, at small sizes:
 * MP4 properties (ffprobe), sprite sheet geometry, seamless loop, determinism, cancel.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { ffprobeJson } from '../helpers/media.js';
import { diffFraction } from '../helpers/pixels.js';
import { useTestEngine } from '../helpers/engine.js';
import { useTempDir } from '../helpers/temp-dir.js';

const engine = useTestEngine();
const dir = useTempDir('render-test-');
const build = demoStageBuild('DEMO-GLASS');
// fast profile: these tests are about the pipeline, not the look
const small = (format: 'video' | 'sprite') =>
  resolveRenderOptions({ format, width: 256, height: 256, profile: 'fast' });

const probe = ffprobeJson;

describe('renderBuild', () => {
  it('reports the WebGL backend and renderer', async () => {
    const info = await engine.pool.info();
    expect(['gpu', 'egl', 'swiftshader']).toContain(info.backend);
    expect(info.gl.renderer.length).toBeGreaterThan(0);
  });

  it('writes a full-turn H.264 yuv420p MP4 with faststart, 120 frames at 30 fps', async () => {
    const out = path.join(dir(), 'video');
    const progress: number[] = [];
    const r = await engine.render({
      build,
      options: small('video'),
      outDir: out,
      onProgress: (p) => p.stage === 'render' && progress.push(p.frame),
    });
    expect(r.frames).toBe(120);
    expect(progress.at(-1)).toBe(120);
    const video = r.files.find((f) => f.kind === 'video')!;
    expect(video.path).toBe(path.join(out, 'video.mp4'));
    const info = await probe(video.path);
    const s = info.streams[0]!;
    expect(s.codec_name).toBe('h264');
    expect(s.pix_fmt).toBe('yuv420p');
    expect([s.width, s.height]).toEqual([256, 256]);
    expect(Number(s.nb_read_frames)).toBe(120);
    expect(Number(info.format.duration)).toBeCloseTo(4, 1);
    const bytes = await readFile(video.path);
    expect(bytes.indexOf('moov')).toBeGreaterThan(0);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    expect(r.files.find((f) => f.kind === 'screenshot')?.mime).toBe('image/webp');
    // only finished files remain: no temporary names
    expect((await readdir(out)).sort()).toEqual(['screenshot.webp', 'video.mp4']);
  });

  it('writes a 12-column WebP sprite sheet of 72 frames whose frames differ by rotation', async () => {
    const out = path.join(dir(), 'sprite');
    const r = await engine.render({ build, options: small('sprite'), outDir: out, outputs: { sprite: true } });
    expect(r.sprite).toEqual({ columns: 12, rows: 6, frames: 72, frame_width: 256, frame_height: 256 });
    const sheet = r.files[0]!;
    const meta = await sharp(sheet.path).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 12 * 256, 6 * 256]);
    const cell = (i: number) =>
      sharp(sheet.path)
        .extract({ left: (i % 12) * 256, top: Math.floor(i / 12) * 256, width: 256, height: 256 })
        .png()
        .toBuffer();
    expect(await diffFraction(await cell(0), await cell(9))).toBeGreaterThan(0.01);
  });

  it('loops seamlessly: the frame after the last equals the first', async () => {
    const o = small('video');
    const [first, afterLast, second] = await engine.stills({ build, options: o, indices: [0, o.frames, 1] });
    expect(await diffFraction(first!, afterLast!, 2)).toBeLessThan(0.001);
    expect(await diffFraction(first!, second!, 2)).toBeGreaterThan(0.0005);
  });

  it('renders identical pixels for identical requests', async () => {
    const o = small('video');
    const [a] = await engine.stills({ build, options: o, indices: [17] });
    const [b] = await engine.stills({ build, options: o, indices: [17] });
    expect(a!.equals(b!)).toBe(true);
  });

  it('limits frames for quick runs and writes a PNG still when asked', async () => {
    const out = path.join(dir(), 'limited');
    const r = await engine.render({
      build,
      options: small('video'),
      outDir: out,
      frameLimit: 6,
      outputs: { video: true, screenshot: 'png' },
    });
    expect(r.frames).toBe(6);
    expect((await sharp(path.join(out, 'screenshot.png')).metadata()).format).toBe('png');
  });

  it('stops promptly on cancel and leaves no partial files', async () => {
    const out = path.join(dir(), 'cancel');
    const ac = new AbortController();
    let last = 0;
    const onProgress = (e: { stage: string; frame: number }) => {
      if (e.stage === 'render') last = Math.max(last, e.frame);
      if (e.frame === 5) ac.abort(new Error('stop'));
    };
    const p = engine.render({ build, options: small('video'), outDir: out, signal: ac.signal, onProgress });
    await expect(p).rejects.toThrow('stop');
    // stopped within the frames already in flight, not at the end of the turn
    expect(last).toBeLessThan(small('video').frames / 2);
    expect(await readdir(out)).toEqual([]);
    // the pool still works afterwards
    const r = await engine.render({
      build,
      options: small('video'),
      outDir: out,
      frameLimit: 2,
      outputs: { video: true },
    });
    expect(r.frames).toBe(2);
  });
});
