/**
 * The largest sprites through the API and a real worker: 1365x1365 frames (WebP's limit with 12
 * columns), standard (72 frames, a 16380x8190 sheet) and high (144 frames, 16380x16380, at sharp's
 * pixel limit), fast profile. Both complete (before the encode's fallback, libwebp refused such
 * sheets at effort 0 after every frame was rendered), and one cell's pixels are checked: the part
 * fills the middle of frame 0, frame 1 is nearly frame 0 (one step of the turn), frame 18 (a
 * quarter turn) is not. Minutes of rendering and encoding: the slow tier (RENDER_FARM_SLOW_TESTS=1,
 * run by .ci/run after the suite).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSprite, startApiWithWorker, type ApiWithWorker } from '../helpers/api-worker.js';

const FRAME = 1365;

/** Frame `i` of a 12-column sheet, as raw RGB. */
async function cell(sheet: Buffer, i: number): Promise<Buffer> {
  return sharp(sheet, { limitInputPixels: false })
    .extract({ left: (i % 12) * FRAME, top: Math.floor(i / 12) * FRAME, width: FRAME, height: FRAME })
    .removeAlpha()
    .raw()
    .toBuffer();
}

/** Mean absolute difference of two RGB buffers, 0..255. */
function meanDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** Distinct colours in the frame's middle third (a flat background has a handful). */
function coloursInMiddle(rgb: Buffer): number {
  const seen = new Set<number>();
  for (let y = FRAME / 3; y < (2 * FRAME) / 3; y += 3) {
    for (let x = Math.floor(FRAME / 3); x < (2 * FRAME) / 3; x += 3) {
      const o = (Math.floor(y) * FRAME + x) * 3;
      seen.add((rgb[o]! >> 3) * 1024 + (rgb[o + 1]! >> 3) * 32 + (rgb[o + 2]! >> 3));
    }
  }
  return seen.size;
}

describe.runIf(process.env.RENDER_FARM_SLOW_TESTS)(
  'the largest sprites through the API (RENDER_FARM_SLOW_TESTS)',
  () => {
    let farm: ApiWithWorker;
    beforeAll(async () => {
      farm = await startApiWithWorker({ renderTimeoutMs: 600_000 });
    }, 180_000);
    afterAll(async () => {
      await farm?.close();
    });

    it.each([
      ['standard', 16380, 8190],
      ['high', 16380, 16380],
    ] as const)(
      'a 1365x1365 %s sprite (fast) completes as a %ix%i sheet with real frames in its cells',
      async (frameQuality, w, h) => {
        const { bytes } = await apiSprite(
          farm.api,
          'DEMO-GLASS',
          { format: 'sprite', width: FRAME, height: FRAME, profile: 'fast', frameQuality },
          900_000,
        );
        const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(['webp', w, h]);
        const [first, next, quarter] = await Promise.all([
          cell(bytes, 0),
          cell(bytes, 1),
          cell(bytes, frameQuality === 'high' ? 36 : 18),
        ]);
        expect(coloursInMiddle(first)).toBeGreaterThan(50);
        const step = meanDiff(first, next);
        const turned = meanDiff(first, quarter);
        expect(step).toBeLessThan(turned / 2);
        expect(turned).toBeGreaterThan(3);
      },
      1_000_000,
    );
  },
);
