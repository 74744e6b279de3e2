/**
 * Cost-aware admission: what a submission may ask of the farm, checked before a render is
 * queued. Three limits (config: maxFrameMegapixels, maxJobCostSeconds, maxCustomerInFlightSeconds):
 * - a frame larger than the memory bound is refused (422 frame_too_large): Chromium's memory
 *   grows with the frame (an 8192x8192 cinematic frame took it to 5-8 GB);
 * - a render estimated over the per-job ceiling is refused (422 render_too_expensive): no
 *   background lane, so nothing accepted can monopolise a worker past the render time-out;
 * - a customer whose queued and processing renders would exceed the in-flight cap gets 429
 *   customer_busy with Retry-After: the estimated seconds until enough of its work is done.
 * Each message names the limit, its setting and the estimate, and says what to do.
 */
import { UserError } from '../errors.js';
import type { CostEstimate } from './cost-model.js';

export interface AdmissionLimits {
  /** largest rendered frame, megapixels (0: no bound) */
  maxFrameMegapixels: number;
  /** per-job ceiling, estimated seconds (0: no ceiling) */
  maxJobCostSeconds: number;
  /** per-customer cap on in-flight estimated seconds (0: no cap) */
  maxCustomerInFlightSeconds: number;
}

/** Bounds on Retry-After: soon enough to be useful, never a wait of hours. */
const RETRY_AFTER_MIN_S = 5;
const RETRY_AFTER_MAX_S = 600;

/** Pure: refuses a request over the frame bound or the per-job ceiling (422). */
export function checkRequestCost(
  est: CostEstimate,
  limits: AdmissionLimits,
  size: { width: number; height: number },
): void {
  if (limits.maxFrameMegapixels > 0 && est.frameMegapixels > limits.maxFrameMegapixels) {
    throw new UserError(
      'frame_too_large',
      `a ${size.width}x${size.height} frame is ${est.frameMegapixels} megapixels, over this farm's limit of ${limits.maxFrameMegapixels} ` +
        "(a worker's memory grows with the frame): ask for a smaller width and height",
      {
        status: 422,
        details: [
          {
            field: 'width',
            message: `frame ${est.frameMegapixels} MP > ${limits.maxFrameMegapixels} MP`,
            limit_megapixels: limits.maxFrameMegapixels,
            frame_megapixels: est.frameMegapixels,
          },
        ],
      },
    );
  }
  if (limits.maxJobCostSeconds > 0 && est.seconds > limits.maxJobCostSeconds) {
    throw new UserError(
      'render_too_expensive',
      `this render is estimated at ${Math.round(est.seconds)} s of worker time (${est.frames} frames of ${est.frameMegapixels} MP), ` +
        `over this farm's per-job limit of ${limits.maxJobCostSeconds} s: ask for a smaller size, the fast or flat profile, or fewer sprite frames`,
      {
        status: 422,
        details: [
          {
            message: `estimate ${Math.round(est.seconds)} s > limit ${limits.maxJobCostSeconds} s`,
            estimate_seconds: est.seconds,
            limit_seconds: limits.maxJobCostSeconds,
          },
        ],
      },
    );
  }
}

/** Pure: refuses a new render that would take the customer's in-flight work over the cap (429 with Retry-After). */
export function checkInFlight(inFlightS: number, est: CostEstimate, limits: AdmissionLimits): void {
  const cap = limits.maxCustomerInFlightSeconds;
  if (cap <= 0 || inFlightS + est.seconds <= cap) return;
  // the estimated seconds of this customer's work that must finish before this one fits
  const wait = Math.min(RETRY_AFTER_MAX_S, Math.max(RETRY_AFTER_MIN_S, Math.ceil(inFlightS + est.seconds - cap)));
  throw new UserError(
    'customer_busy',
    `your queued and processing renders are estimated at ${Math.round(inFlightS)} s of worker time; with this one (${Math.round(est.seconds)} s) ` +
      `they would pass the per-customer limit of ${cap} s in flight: retry after ${wait} s, when some have finished`,
    {
      status: 429,
      headers: { 'Retry-After': String(wait) },
      details: [
        {
          message: `in flight ${Math.round(inFlightS)} s + ${Math.round(est.seconds)} s > cap ${cap} s`,
          in_flight_seconds: inFlightS,
          estimate_seconds: est.seconds,
          cap_seconds: cap,
        },
      ],
    },
  );
}
