/**
 * Installs the capture helpers (PageHelpers of src/model/capture-contract.ts) on `window`, where
 * Node's callStage (src/render/call-stage.ts) calls them by name, next to `window.renderStage`.
 */
import type { PageHelpers } from '../../../src/model/capture-contract.js';
import type { StageApi } from '../../../src/model/stage-contract.js';
import { abortRun, runCapture } from './capture-run.js';
import { h264Codec } from './h264-segments.js';
import { contextLost, timeFrames } from './stage-probes.js';
import { abortBatch, stillsBatch } from './stills-batch.js';

export function installCaptureHelpers(stage: StageApi): void {
  const helpers: PageHelpers = {
    __rfRun: (req) => runCapture(stage, req),
    __rfH264Codec: h264Codec,
    __rfAbortRun: abortRun,
    __rfTimeFrames: (frames) => timeFrames(stage, frames),
    __rfContextLost: () => contextLost(stage),
    __rfStillsBatch: (req) => stillsBatch(stage, req),
    __rfAbortBatch: abortBatch,
  };
  Object.assign(window, helpers);
}
