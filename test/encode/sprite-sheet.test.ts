/**
 * SpriteSheetWriter's WebP encode with real libvips/libwebp: high-entropy sheets (noise, the worst
 * case for libwebp's size-limited first partition) that effort 0 refuses, at the product's largest
 * sheets (1365 px frames: standard 16380x8190, high 16380x16380, right at sharp's pixel limit), go
 * through the fallback steps; a sheet no step can encode says so in words, never libvips's text.
 */
import { randomFillSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpriteEncodeError, SpriteSheetWriter, sheetEncodings, stepName } from '../../src/encode/sprite-sheet.js';
import { spriteLayout, type SpriteLayout } from '../../src/model/sprite-layout.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sprite-sheet-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A sheet of noise but for frame 0, a flat colour whose pixels can be checked after the lossy encode. */
function noiseSheet(layout: SpriteLayout): SpriteSheetWriter {
  const sheet = new SpriteSheetWriter(layout);
  const width = layout.columns * layout.frame_width;
  const row = new Uint8Array(width * layout.frame_height * 4);
  for (let r = 0; r < layout.rows; r++) {
    randomFillSync(row);
    if (r === 0) {
      for (let y = 0; y < layout.frame_height; y++) {
        for (let x = 0; x < layout.frame_width; x++) row.set([200, 40, 90, 255], (y * width + x) * 4);
      }
    }
    sheet.addRow(r, row);
  }
  return sheet;
}

/** Decodes `file` and checks its size and frame 0's flat colour (lossy: within a few levels). */
async function checkSheet(file: string, layout: SpriteLayout): Promise<void> {
  const meta = await sharp(file, { limitInputPixels: false }).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual([
    'webp',
    layout.columns * layout.frame_width,
    layout.rows * layout.frame_height,
  ]);
  // the middle of frame 0, away from the noise next to it
  const side = Math.floor(layout.frame_width / 4);
  const { data } = await sharp(file, { limitInputPixels: false })
    .extract({ left: side, top: side, width: side, height: side })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let worst = 0;
  for (let i = 0; i < data.length; i += 3) {
    worst = Math.max(worst, Math.abs(data[i]! - 200), Math.abs(data[i + 1]! - 40), Math.abs(data[i + 2]! - 90));
  }
  expect(worst).toBeLessThanOrEqual(8);
}

describe('sprite sheet encode', () => {
  it('tries effort 0 first, then a higher effort, a lower quality, then lossless, with no step twice', () => {
    expect(sheetEncodings(90).map(stepName)).toEqual([
      'effort 0 quality 90',
      'effort 2 quality 90',
      'effort 0 quality 75',
      'lossless effort 0',
    ]);
    expect(sheetEncodings(60).map(stepName)).toEqual([
      'effort 0 quality 60',
      'effort 2 quality 60',
      'lossless effort 0',
    ]);
  });

  it('a sheet the lossy step refuses is encoded by the lossless step, to the very pixels', async () => {
    // a real 16380x16380 render failed every lossy step (its API test is test/render/large-sprites.test.ts);
    // here a busy 6144x3072 sheet that effort 0 refuses, given only that step and the lossless one
    const layout = { columns: 12, rows: 6, frames: 72, frame_width: 512, frame_height: 512 };
    const sheet = noiseSheet(layout);
    const file = path.join(dir, 'lossless.webp');
    const [first, , , lossless] = sheetEncodings(90);
    const used = await sheet.writeWebp(file, 90, [first!, lossless!]);
    expect(used.failedSteps).toBe(1);
    expect(used.lossless).toBe(true);
    expect(used.tries.map((t) => t.ok)).toEqual([false, true]);
    await checkSheet(file, layout);
    // lossless: frame 0's flat colour comes back exactly
    const cell = await sharp(file).extract({ left: 0, top: 0, width: 512, height: 512 }).raw().toBuffer();
    expect(cell.every((v, i) => v === [200, 40, 90][i % 3])).toBe(true);
  }, 120_000);

  it('a busy 6144x3072 sheet that effort 0 refuses is encoded by the next step', async () => {
    const layout = { columns: 12, rows: 6, frames: 72, frame_width: 512, frame_height: 512 };
    const file = path.join(dir, 'busy-512.webp');
    const used = await noiseSheet(layout).writeWebp(file);
    expect(used.failedSteps).toBeGreaterThanOrEqual(1);
    expect(used.effort).toBeGreaterThan(0);
    await checkSheet(file, layout);
  });

  // ~3 minutes of encoding on 2 cores: the slow tier (RENDER_FARM_SLOW_TESTS=1, run by .ci/run after the suite)
  it.runIf(process.env.RENDER_FARM_SLOW_TESTS).each([
    ['standard', 16380, 8190],
    ['high', 16380, 16380],
  ] as const)(
    'the largest %s sheet of noise (%ix%i, 1365 px frames) encodes',
    async (quality, w, h) => {
      const layout = spriteLayout(1365, 1365, quality);
      expect([layout.columns * layout.frame_width, layout.rows * layout.frame_height]).toEqual([w, h]);
      const file = path.join(dir, `busy-1365-${quality}.webp`);
      const used = await noiseSheet(layout).writeWebp(file);
      expect(used.failedSteps).toBeGreaterThanOrEqual(1);
      await checkSheet(file, layout);
      await rm(file);
    },
    600_000,
  );

  it('a sheet no step can encode fails in words, with the library text kept for the log only', async () => {
    // wider than WebP allows (16383): libvips refuses it at every step
    const layout = { columns: 12, rows: 1, frames: 12, frame_width: 1400, frame_height: 8 };
    const err = await noiseSheet(layout)
      .writeWebp(path.join(dir, 'too-wide.webp'))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpriteEncodeError);
    expect((err as Error).message).toBe(
      'the sprite sheet could not be encoded at 16800x8: ask for a smaller frame or a video',
    );
    expect((err as SpriteEncodeError).steps).toHaveLength(sheetEncodings(90).length);
    expect((err as SpriteEncodeError).steps[0]).toMatch(/^effort 0 quality 90: .*webp/i);
  });
});
