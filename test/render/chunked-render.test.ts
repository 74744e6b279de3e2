/**
 * Farm chunks with real Chromium, ffmpeg and sharp at small sizes: renderChunk pieces joined by
 * encode/assemble.ts must give exactly the bytes of a whole render (video on both encode paths,
 * sprite sheets, the screenshot), and the joins between segments must not show.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { assembleSprite, assembleVideo, verifyVideo } from '../../src/encode/assemble.js';
import { chunkUnitFrames } from '../../src/model/chunk-unit.js';
import { VIDEO_SEGMENT_FRAMES } from '../../src/model/render-defaults.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import type { ChunkResult } from '../../src/render/render-chunk.js';
import { useTestEngine } from '../helpers/engine.js';
import { useTempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const engine = useTestEngine();
const dir = useTempDir('chunk-test-');
const build = demoStageBuild('DEMO-GLASS');
const small = (format: 'video' | 'sprite') =>
  resolveRenderOptions({ format, width: 256, height: 256, profile: 'fast' });

/** verifyVideo of an assembled MP4 against the options it was rendered with. */
const verifyAssembled = (file: string, o: { frames: number; fps: number }) =>
  verifyVideo({
    ffprobePath: engine.tools.ffprobe,
    ffmpegPath: engine.tools.ffmpeg,
    file,
    frames: o.frames,
    fps: o.fps,
  });

const piece = (r: ChunkResult, kind: 'h264' | 'rows' | 'screenshot') => r.pieces.find((p) => p.kind === kind);

/** Frames `ns` of a video, decoded small and grey (as verifyVideo compares them). */
async function greyFrames(file: string, ns: number[]): Promise<Buffer[]> {
  const select = ns.map((n) => `eq(n\\,${n})`).join('+');
  const { stdout } = await run(
    engine.tools.ffmpeg,
    [
      '-v',
      'error',
      '-i',
      file,
      '-vf',
      `select=${select},scale=160:-2,format=gray`,
      '-vsync',
      '0',
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  const size = stdout.length / ns.length;
  return ns.map((_, k) => stdout.subarray(k * size, (k + 1) * size));
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** Renders the whole video and the same video in chunks; returns both MP4 paths and the chunks. */
async function wholeAndChunked(
  name: string,
  videoEncoder: 'auto' | 'x264',
  bounds: Array<[number, number]>,
  o = small('video'),
) {
  const whole = await engine.render({ build, options: o, outDir: path.join(dir(), name, 'whole'), videoEncoder });
  const chunks: ChunkResult[] = [];
  for (const [start, end] of bounds) {
    const progress: Array<[number, number]> = [];
    const r = await engine.renderChunk({
      build,
      options: o,
      outDir: path.join(dir(), name, `c${start}`),
      videoEncoder,
      start,
      end,
      onProgress: (p) => p.stage === 'render' && progress.push([p.frame, p.total]),
    });
    expect(r.frames).toBe(end - start);
    expect(r.videoPath).toBe(whole.videoPath);
    // progress counts within the chunk
    expect(progress[0]).toEqual([1, end - start]);
    expect(progress.at(-1)).toEqual([end - start, end - start]);
    chunks.push(r);
  }
  const output = path.join(dir(), name, 'assembled.mp4');
  await assembleVideo({
    ffmpegPath: engine.tools.ffmpeg,
    segments: chunks.map((c) => piece(c, 'h264')!.path),
    fps: o.fps,
    width: o.width,
    height: o.height,
    output,
  });
  return { o, whole, chunks, wholeMp4: whole.files.find((f) => f.kind === 'video')!.path, output };
}

describe('chunked video', () => {
  it('is byte-identical to the whole render on the WebCodecs path, and verifies', async () => {
    const { o, whole, chunks, wholeMp4, output } = await wholeAndChunked('webcodecs', 'auto', [
      [0, 60],
      [60, 120],
    ]);
    // this Chromium encodes H.264 with WebCodecs (Debian's does): the path under test
    expect(whole.videoPath).toBe('webcodecs');
    expect((await readFile(output)).equals(await readFile(wholeMp4))).toBe(true);
    const check = await verifyAssembled(output, o);
    expect(check).toMatchObject({ frames: 120, durationS: 4, width: 256, height: 256 });
    expect(check.loopRatio).toBeLessThan(3);
    // the hero still (frame 0) comes with the first chunk only, as the whole render writes it
    expect(chunks.map((c) => c.pieces.map((p) => p.kind).sort())).toEqual([['h264', 'screenshot'], ['h264']]);
    const shot = whole.files.find((f) => f.kind === 'screenshot')!.path;
    expect((await readFile(piece(chunks[0]!, 'screenshot')!.path)).equals(await readFile(shot))).toBe(true);
    expect(piece(chunks[0]!, 'h264')).toMatchObject({
      mime: 'video/h264',
      path: path.join(dir(), 'webcodecs', 'c0', 'video.h264'),
    });
    // only finished files remain
    expect(await readdir(path.join(dir(), 'webcodecs', 'c60'))).toEqual(['video.h264']);
  });

  it('is byte-identical to the whole render on the x264 path', async () => {
    const { whole, chunks, wholeMp4, output } = await wholeAndChunked('x264', 'x264', [
      [0, 30],
      [30, 120],
    ]);
    expect(whole.videoPath).toBe('x264');
    expect(chunks.every((c) => c.videoPath === 'x264')).toBe(true);
    expect((await readFile(output)).equals(await readFile(wholeMp4))).toBe(true);
  });

  it('hides the joins: steps across segment boundaries look like the others', async () => {
    const { output } = await wholeAndChunked('seams', 'auto', [
      [0, 60],
      [60, 120],
    ]);
    const f = await greyFrames(output, [28, 29, 30, 31, 58, 59, 60, 61]);
    const d = (a: number, b: number) => meanAbsDiff(f[a]!, f[b]!);
    // 29 -> 30: a segment boundary; 59 -> 60 also a chunk boundary
    for (const [before, seam, after] of [
      [d(0, 1), d(1, 2), d(2, 3)],
      [d(4, 5), d(5, 6), d(6, 7)],
    ] as const) {
      expect(seam).toBeLessThanOrEqual(3 * Math.max(before, after) + 2);
    }
  });
});

describe('chunked video where WebCodecs is not reproducible (640x480 and up)', () => {
  it('matches a whole render within encoder noise, frame by frame, and verifies', async () => {
    const o = resolveRenderOptions({ format: 'video', width: 640, height: 480, profile: 'fast' });
    const { whole, wholeMp4, output } = await wholeAndChunked(
      'vga',
      'auto',
      [
        [0, 60],
        [60, 120],
      ],
      o,
    );
    expect(whole.videoPath).toBe('webcodecs');
    const check = await verifyAssembled(output, o);
    expect(check).toMatchObject({ frames: 120, durationS: 4, width: 640, height: 480 });
    const ns = [0, 29, 30, 59, 60, 90, 119];
    const [a, b] = await Promise.all([greyFrames(wholeMp4, ns), greyFrames(output, ns)]);
    // the same frames, encoded with other slice borders: differences of a grey level or so,
    // against ~10 between neighbouring frames of the turn
    for (let k = 0; k < ns.length; k++) expect(meanAbsDiff(a[k]!, b[k]!), `frame ${ns[k]}`).toBeLessThan(1.5);
    expect(meanAbsDiff(a[0]!, a[1]!)).toBeGreaterThan(3);
  });
});

describe('chunked sprite', () => {
  it("assembles rows of 2-3 chunks into the whole render's sheet, byte for byte", async () => {
    const o = small('sprite');
    expect(chunkUnitFrames(o)).toBe(12);
    const whole = await engine.render({ build, options: o, outDir: path.join(dir(), 'sprite', 'whole') });
    const bounds: Array<[number, number]> = [
      [0, 24],
      [24, 60],
      [60, 72],
    ];
    const chunks = [];
    for (const [start, end] of bounds) {
      chunks.push(
        await engine.renderChunk({ build, options: o, outDir: path.join(dir(), 'sprite', `c${start}`), start, end }),
      );
    }
    const output = path.join(dir(), 'sprite', 'assembled.webp');
    await assembleSprite({
      layout: o.sprite!,
      rows: chunks.map((c, k) => ({ firstRow: bounds[k]![0] / 12, path: piece(c, 'rows')!.path })),
      output,
    });
    const sheet = whole.files.find((f) => f.kind === 'sprite')!.path;
    expect((await readFile(output)).equals(await readFile(sheet))).toBe(true);
    expect(chunks.map((c) => c.pieces.filter((p) => p.kind === 'screenshot').length)).toEqual([1, 0, 0]);
    const shot = whole.files.find((f) => f.kind === 'screenshot')!.path;
    expect((await readFile(piece(chunks[0]!, 'screenshot')!.path)).equals(await readFile(shot))).toBe(true);
  });

  it('refuses a sheet with rows missing', async () => {
    const o = small('sprite');
    const r = await engine.renderChunk({
      build,
      options: o,
      outDir: path.join(dir(), 'sprite-part'),
      start: 0,
      end: 12,
    });
    await expect(
      assembleSprite({
        layout: o.sprite!,
        rows: [{ firstRow: 0, path: piece(r, 'rows')!.path }],
        output: path.join(dir(), 'sprite-part', 'x.webp'),
      }),
    ).rejects.toThrow(/12 of 72 frames/);
  });
});

describe('chunk bounds', () => {
  it('takes only whole units, opaque renders', async () => {
    const o = small('video');
    expect(chunkUnitFrames(o)).toBe(VIDEO_SEGMENT_FRAMES);
    const at = (start: number, end: number, transparent = false) =>
      engine.renderChunk({ build, options: o, outDir: path.join(dir(), 'bounds'), start, end, transparent });
    await expect(at(10, 60)).rejects.toThrow(/multiples of 30/);
    await expect(at(0, 50)).rejects.toThrow(/multiples of 30/);
    await expect(at(60, 150)).rejects.toThrow(/outside the turn/);
    await expect(at(0, 30, true)).rejects.toThrow(/transparent/);
  });
});
