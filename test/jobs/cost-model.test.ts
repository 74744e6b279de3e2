/** The cost model and the admission rules it feeds, with the shipped default limits. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { UserError } from '../../src/errors.js';
import { checkInFlight, checkRequestCost, type AdmissionLimits } from '../../src/jobs/admission.js';
import { estimateRenderCost } from '../../src/jobs/cost-model.js';
import { priorityFor, MAX_RENDER_PRIORITY } from '../../src/jobs/fair-priority.js';
import { resolveRenderOptions, type RenderOptions } from '../../src/model/render-options.js';

const cfg = loadConfig({}, {});
const limits: AdmissionLimits = cfg;
const est = (o: RenderOptions) => estimateRenderCost(resolveRenderOptions(o));
const refusal = (o: RenderOptions): UserError | null => {
  const r = resolveRenderOptions(o);
  try {
    checkRequestCost(estimateRenderCost(r), limits, r);
    return null;
  } catch (e) {
    return e as UserError;
  }
};

describe('cost model', () => {
  it('grows with pixels, frames and profile', () => {
    const small = est({ format: 'sprite', width: 256, height: 256, profile: 'fast' });
    expect(est({ format: 'sprite', width: 512, height: 512, profile: 'fast' }).seconds).toBeGreaterThan(small.seconds);
    expect(est({ format: 'sprite', width: 256, height: 256, profile: 'cinematic' }).seconds).toBeGreaterThan(
      small.seconds,
    );
    expect(est({ format: 'sprite', width: 256, height: 256, profile: 'fast', frameQuality: 'high' }).frames).toBe(144);
    expect(est({ format: 'video', width: 1280, height: 720 })).toMatchObject({ frames: 120, frameMegapixels: 0.92 });
  });

  it('estimates within 2x of the calibration runs (seconds per frame measured on this machine)', () => {
    const perFrame = (o: RenderOptions) => {
      const e = est(o);
      return e.seconds / e.frames;
    };
    // measured: 0.017, 0.093, 0.524 (loaded machine; 0.220 idle) s/frame (src/jobs/cost-model.ts)
    expect(perFrame({ format: 'sprite', width: 256, height: 256, profile: 'fast' })).toBeLessThan(0.017 * 2 + 1.2 / 72);
    expect(perFrame({ format: 'video', width: 640, height: 360, profile: 'cinematic' }) / 0.093).toBeLessThan(2);
    expect(perFrame({ format: 'video', width: 1280, height: 720, profile: 'cinematic' }) / 0.524).toBeGreaterThan(0.5);
  });
});

describe('admission with the default limits', () => {
  it("allows the contract check's requests and everyday sizes", () => {
    expect(refusal({ format: 'sprite', width: 256, height: 256, profile: 'fast' })).toBeNull();
    expect(refusal({})).toBeNull(); // default 1280x720 cinematic video
    expect(refusal({ format: 'video', width: 1920, height: 1080, profile: 'cinematic' })).toBeNull();
    expect(
      refusal({ format: 'sprite', width: 8192, height: 8192, profile: 'cinematic', frameQuality: 'high' }),
    ).toBeNull(); // shrinks to 1365 px frames
    expect(refusal({ format: 'video', width: 8192, height: 256, profile: 'fast' })).toBeNull();
  });

  it('refuses the 8192x8192 cinematic video by the frame bound, naming limit and size', () => {
    const e = refusal({ format: 'video', width: 8192, height: 8192, profile: 'cinematic' });
    expect(e).toMatchObject({ status: 422, code: 'frame_too_large' });
    expect(e!.message).toContain('67.11 megapixels');
    expect(e!.message).toContain(`limit of ${cfg.maxFrameMegapixels}`);
  });

  it('refuses a render over the per-job ceiling, naming the estimate and the limit', () => {
    const e = refusal({ format: 'video', width: 4096, height: 4096, profile: 'cinematic' });
    expect(e).toMatchObject({ status: 422, code: 'render_too_expensive' });
    expect(e!.message).toMatch(/estimated at \d+ s/);
    expect(e!.details?.[0]).toMatchObject({ limit_seconds: cfg.maxJobCostSeconds });
    // the same size at the fast profile fits
    expect(refusal({ format: 'video', width: 4096, height: 4096, profile: 'fast' })).toBeNull();
  });

  it('caps in-flight work per customer with 429 and a Retry-After naming how long', () => {
    const e = est({ format: 'video', width: 1920, height: 1080 });
    expect(() => checkInFlight(0, e, limits)).not.toThrow();
    let err: UserError | null = null;
    try {
      checkInFlight(cfg.maxCustomerInFlightSeconds - 10, e, limits);
    } catch (x) {
      err = x as UserError;
    }
    expect(err).toMatchObject({ status: 429, code: 'customer_busy' });
    expect(Number(err!.headers!['Retry-After'])).toBeGreaterThanOrEqual(5);
    expect(err!.message).toContain(`${cfg.maxCustomerInFlightSeconds} s`);
    expect(() => checkInFlight(1e9, e, { ...limits, maxCustomerInFlightSeconds: 0 })).not.toThrow();
  });
});

describe('fair priority', () => {
  it("sinks with the customer's load, small jobs first when equal, bounded above thumbnails", () => {
    expect(priorityFor(0, 3)).toBeLessThan(priorityFor(400, 3));
    expect(priorityFor(0, 3)).toBeLessThan(priorityFor(0, 300));
    expect(priorityFor(1e40, 1e40)).toBe(MAX_RENDER_PRIORITY);
    expect(priorityFor(0, 0)).toBe(0);
  });
});
