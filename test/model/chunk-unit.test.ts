import { describe, expect, it } from 'vitest';
import {
  chunkUnitFrames,
  LARGE_FRAME_MP,
  LARGE_FRAME_SEGMENT_TARGET_S,
  SEGMENT_TARGET_S,
  TYPICAL_S_PER_MP,
  VIDEO_SEGMENT_CHOICES,
  videoSegmentFrames,
} from '../../src/model/chunk-unit.js';
import { VIDEO_FRAMES } from '../../src/model/render-defaults.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';

describe('video segments', () => {
  it('are 1 s for ordinary sizes and shorter for big cinematic frames, always dividing the turn', () => {
    const seg = (width: number, height: number, profile: 'cinematic' | 'flat' | 'fast') =>
      videoSegmentFrames({ width, height, profile });
    expect(seg(1280, 720, 'cinematic')).toBe(30);
    expect(seg(1920, 1080, 'fast')).toBe(30);
    expect(seg(1920, 1080, 'cinematic')).toBe(15);
    // above 1080p's area segments aim at 5 s: chunks of huge frames let other customers in sooner
    expect(seg(2048, 2048, 'cinematic')).toBe(4);
    expect(seg(2560, 1440, 'fast')).toBe(10);
    for (const n of VIDEO_SEGMENT_CHOICES) expect(VIDEO_FRAMES % n).toBe(0);
  });

  it('keeps a segment within the target at typical speed, down to the shortest choice', () => {
    for (const side of [256, 512, 1024, 1536, 2048, 3072, 4096]) {
      for (const profile of ['cinematic', 'flat', 'fast'] as const) {
        const n = videoSegmentFrames({ width: side, height: side, profile });
        const mp = (side * side) / 1e6;
        const seconds = n * mp * TYPICAL_S_PER_MP[profile];
        if (n !== VIDEO_SEGMENT_CHOICES.at(-1))
          expect(seconds).toBeLessThanOrEqual(mp > LARGE_FRAME_MP ? LARGE_FRAME_SEGMENT_TARGET_S : SEGMENT_TARGET_S);
      }
    }
  });

  it('is the chunk unit of a video; a sheet row is that of a sprite', () => {
    expect(
      chunkUnitFrames(resolveRenderOptions({ format: 'video', width: 1920, height: 1080, profile: 'cinematic' })),
    ).toBe(15);
    expect(chunkUnitFrames(resolveRenderOptions({ format: 'sprite', width: 512, height: 512 }))).toBe(12);
  });
});
