/**
 * Many single stills in one page session (`__rfStillsBatch`, Node side src/render/batch-stills.ts):
 * per build, load it and capture its hero frame through runCapture, as every other render does.
 * A build that fails to load or capture is reported and skipped; the rest still render.
 */
import type { PageBatchFailure, PageBatchRequest } from '../../../src/model/capture-contract.js';
import type { StageApi } from '../../../src/model/stage-contract.js';
import { errorMessage } from '../util/error-message.js';
import { abortRun, runCapture } from './capture-run.js';

/** Set by abortBatch: the running batch stops before its next build. */
let batchAbort: string | null = null;

/** Makes a running batch stop before its next build, and its running capture at its next frame (`__rfAbortBatch`). */
export function abortBatch(reason: string): void {
  batchAbort = reason;
  abortRun(reason);
}

/** The hero still of each build, under `${token}b${i}`; resolves to the builds that failed. */
export async function stillsBatch(stage: StageApi, req: PageBatchRequest): Promise<PageBatchFailure[]> {
  batchAbort = null;
  const errors: PageBatchFailure[] = [];
  // no stage.dispose() at the end: it would also drop the cached environment, which the next
  // batch would prefilter again (~0.4 s CPU a batch); the next load disposes the last part
  for (let i = 0; i < req.builds.length; i++) {
    if (batchAbort) throw new Error(batchAbort);
    try {
      const info = await stage.load(req.builds[i], req.options);
      await runCapture(stage, { ...req.capture, token: req.token + 'b' + i, indices: [info.heroFrame] });
    } catch (err) {
      errors.push({ index: i, error: errorMessage(err) });
    }
  }
  return errors;
}
