import { describe, expect, it } from 'vitest';
import { planChunks, secondsPerFrame } from '../../src/jobs/chunk-plan.js';
import { secondsPerMegapixel } from '../../src/jobs/worker-speed.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';

const covers = (ranges: { start: number; end: number }[], frames: number) => {
  expect(ranges[0]!.start).toBe(0);
  expect(ranges.at(-1)!.end).toBe(frames);
  for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.start).toBe(ranges[i - 1]!.end);
};

describe('planChunks', () => {
  it('keeps a small render in one chunk (no split overhead for a 256 px sprite)', () => {
    const o = resolveRenderOptions({ format: 'sprite', width: 256, height: 256, profile: 'fast' });
    const r = planChunks({ frames: o.frames, unit: 12, secondsPerFrame: secondsPerFrame(o), targetS: 10 });
    expect(r).toEqual([{ idx: 0, start: 0, end: 72 }]);
  });

  it('splits a 1080p cinematic video on whole 30-frame segments, sized for the target', () => {
    const o = resolveRenderOptions({ format: 'video', width: 1920, height: 1080, profile: 'cinematic' });
    // measured-like 0.25 s/MP: ~0.53 s a frame, 30 frames ~16 s: one segment a chunk
    const r = planChunks({ frames: o.frames, unit: 30, secondsPerFrame: secondsPerFrame(o, 0.25), targetS: 10 });
    expect(r.map((c) => [c.start, c.end])).toEqual([[0, 30], [30, 60], [60, 90], [90, 120]]);
    // a twice faster worker: two segments a chunk
    const fast = planChunks({ frames: o.frames, unit: 30, secondsPerFrame: 0.17, targetS: 10 });
    expect(fast.map((c) => [c.start, c.end])).toEqual([[0, 60], [60, 120]]);
  });

  it('spreads units evenly and ends at the last frame when frames are not a multiple of the unit', () => {
    const r = planChunks({ frames: 100, unit: 12, secondsPerFrame: 1, targetS: 24 });
    covers(r, 100);
    for (const c of r) expect(c.start % 12).toBe(0);
    const sizes = r.map((c) => c.end - c.start);
    // at most one unit apart, plus the last unit's missing frames
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(12 + (108 - 100));
  });

  it('never splits with a target of 0 (RENDER_FARM_CHUNK_SECONDS=0)', () => {
    expect(planChunks({ frames: 120, unit: 30, secondsPerFrame: 5, targetS: 0 })).toHaveLength(1);
  });

  it('splits at most into single units', () => {
    const r = planChunks({ frames: 120, unit: 30, secondsPerFrame: 100, targetS: 10 });
    expect(r).toHaveLength(4);
    covers(r, 120);
  });
});

describe('worker speed', () => {
  it('turns a measured frame rate into seconds per megapixel-frame', () => {
    // 720p cinematic at 4.55 frames/s: 0.220 s a frame, 0.92 MP
    expect(secondsPerMegapixel(4.55, 0.9216)).toBeCloseTo(0.2298, 3);
    expect(secondsPerMegapixel(0, 1)).toBeNull();
    // too small a frame to say anything about per-pixel cost
    expect(secondsPerMegapixel(60, 0.01)).toBeNull();
  });
});
