import { describe, expect, it } from 'vitest';
import { estimateSplit, planChunks, secondsPerFrame } from '../../src/jobs/chunk-plan.js';
import { secondsPerMegapixel, speedKey } from '../../src/jobs/worker-speed.js';
import { chunkUnitFrames } from '../../src/model/chunk-unit.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';

const covers = (ranges: { start: number; end: number }[], frames: number) => {
  expect(ranges[0]!.start).toBe(0);
  expect(ranges.at(-1)!.end).toBe(frames);
  for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.start).toBe(ranges[i - 1]!.end);
};

describe('planChunks', () => {
  it('keeps a small render in one chunk (no split overhead for a 256 px sprite)', () => {
    const o = resolveRenderOptions({ format: 'sprite', width: 256, height: 256, profile: 'fast' });
    const r = planChunks({ frames: o.frames, unit: 12, secondsPerFrame: secondsPerFrame(o), targetS: 10, workers: 2 });
    expect(r).toEqual([{ idx: 0, start: 0, end: 72 }]);
  });

  it('splits a 1080p cinematic video on whole 30-frame segments, sized for the target', () => {
    const o = resolveRenderOptions({ format: 'video', width: 1920, height: 1080, profile: 'cinematic' });
    // measured-like 0.25 s/MP: ~0.53 s a frame, 30 frames ~16 s: one segment a chunk
    const r = planChunks({
      frames: o.frames,
      unit: 30,
      secondsPerFrame: secondsPerFrame(o, 0.25),
      targetS: 10,
      workers: 1,
    });
    expect(r.map((c) => [c.start, c.end])).toEqual([
      [0, 30],
      [30, 60],
      [60, 90],
      [90, 120],
    ]);
    // a twice faster worker: two segments a chunk (worth splitting on 2 workers: ~21 s whole)
    const fast = planChunks({ frames: o.frames, unit: 30, secondsPerFrame: 0.17, targetS: 10, workers: 2 });
    expect(fast.map((c) => [c.start, c.end])).toEqual([
      [0, 60],
      [60, 120],
    ]);
  });

  it('spreads units evenly and ends at the last frame when frames are not a multiple of the unit', () => {
    const r = planChunks({ frames: 100, unit: 12, secondsPerFrame: 1, targetS: 24, workers: 1 });
    covers(r, 100);
    for (const c of r) expect(c.start % 12).toBe(0);
    const sizes = r.map((c) => c.end - c.start);
    // at most one unit apart, plus the last unit's missing frames
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(12 + (108 - 100));
  });

  it('never splits with a target of 0 (RENDER_FARM_CHUNK_SECONDS=0)', () => {
    expect(planChunks({ frames: 120, unit: 30, secondsPerFrame: 5, targetS: 0, workers: 4 })).toHaveLength(1);
  });

  it('splits at most into single units', () => {
    const r = planChunks({ frames: 120, unit: 30, secondsPerFrame: 100, targetS: 10, workers: 1 });
    expect(r).toHaveLength(4);
    covers(r, 120);
  });
});

describe('split only when it pays (docs/design-decisions.md: small videos split wrongly)', () => {
  const small = resolveRenderOptions({ format: 'video', width: 640, height: 360, profile: 'fast' });
  const mp = (o: { width: number; height: number }) => (o.width * o.height) / 1e6;

  it('a 640x360 fast video is not split by a worker that measured 256 px sprites at 0.8-1.2 s/MP', () => {
    expect(small.frames).toBe(120);
    const sprite = resolveRenderOptions({ format: 'sprite', width: 256, height: 256, profile: 'fast' });
    for (const spriteSpeed of [0.8, 1.0, 1.2]) {
      // what that worker stored after its sprites: a figure for the sprites' size class only
      const stored: Record<string, number> = { [speedKey('fast', mp(sprite))]: spriteSpeed };
      const spf = secondsPerFrame(small, stored[speedKey('fast', mp(small))] ?? null);
      for (const workers of [1, 2, 4]) {
        expect(
          planChunks({
            frames: small.frames,
            unit: chunkUnitFrames(small),
            secondsPerFrame: spf,
            targetS: 10,
            workers,
          }),
        ).toHaveLength(1);
      }
    }
  });

  it('the fault run itself: 4 chunks on 2 workers are estimated slower than whole (measured 14.1 s vs 11.1 s), so it stays whole', () => {
    // the worker's own figure for 640x360 fast once measured there: 11.1 s for the whole render
    const spf = (11.1 - 1.2) / 120;
    expect(
      planChunks({ frames: 120, unit: chunkUnitFrames(small), secondsPerFrame: spf, targetS: 10, workers: 2 }),
    ).toHaveLength(1);
    // the split the fault run made (4 chunks of one segment), as the planner estimates it
    const est = estimateSplit({ frames: 120, unit: 30, secondsPerFrame: spf, targetS: 2.5, workers: 2 });
    expect(est.chunks).toBe(4);
    expect(est.wholeS).toBeCloseTo(11.1, 5);
    expect(est.splitS).toBeGreaterThan(est.wholeS);
    expect(est.splitS).toBeGreaterThan(12);
    expect(est.splitS).toBeLessThan(16);
  });

  it('a size class is its own figure: the same profile at another frame size is not measured by it', () => {
    expect(speedKey('fast', 0.066)).not.toBe(speedKey('fast', 0.23));
    expect(speedKey('fast', 0.23)).toBe(speedKey('fast', 0.31));
    expect(speedKey('cinematic', 0.92)).not.toBe(speedKey('fast', 0.92));
    expect(speedKey('cinematic', 2.07)).not.toBe(speedKey('cinematic', 0.92));
  });

  it('a large cinematic video still splits on 2 or more workers, and the split is faster', () => {
    const big = resolveRenderOptions({ format: 'video', width: 1920, height: 1080, profile: 'cinematic' });
    const spf = secondsPerFrame(big, 0.25);
    for (const workers of [2, 3, 8]) {
      const input = { frames: big.frames, unit: chunkUnitFrames(big), secondsPerFrame: spf, targetS: 10, workers };
      const r = planChunks(input);
      expect(r.length).toBeGreaterThanOrEqual(workers > 4 ? 4 : workers);
      covers(r, big.frames);
      const est = estimateSplit(input);
      expect(est.splitS).toBeLessThan(est.wholeS);
    }
  });

  it('one worker splits only a render long enough for fairness (other customers get in between chunks)', () => {
    // ~12 s whole: no parallel gain and short enough to hold one worker
    expect(planChunks({ frames: 120, unit: 30, secondsPerFrame: 0.1, targetS: 10, workers: 1 })).toHaveLength(1);
    // ~60 s whole: split so a newcomer waits for a chunk, not the whole render
    expect(planChunks({ frames: 120, unit: 30, secondsPerFrame: 0.5, targetS: 10, workers: 1 }).length).toBeGreaterThan(
      1,
    );
  });

  it('a split whose page loads and assemble eat the gain is not made', () => {
    // 8.4 s whole; two 3.6 s chunks on 2 workers: 3.6 s + a page load per chunk + the assemble
    const input = { frames: 120, unit: 30, secondsPerFrame: 0.06, targetS: 3.6, workers: 2 };
    expect(planChunks(input)).toHaveLength(1);
    const est = estimateSplit(input);
    expect(est.chunks).toBe(2);
    expect(est.splitS).toBeGreaterThan(est.wholeS);
    // the same on 2 workers with twice the frames' cost pays
    expect(planChunks({ ...input, secondsPerFrame: 0.12, targetS: 7.2 })).toHaveLength(2);
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
