/** Single frames of a build as lossless PNGs in memory (thumbnails, tests), without a turn. */
import { randomBytes } from 'node:crypto';
import { toStageOptions, type StageBuild } from '../model/stage-contract.js';
import type { BrowserPool } from './browser-pool.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';
import { captureRequest } from '../model/capture-contract.js';
import { callStage } from './call-stage.js';
import type { ModelSource } from './model-source.js';
import { withModelSource } from './turn.js';

/** What renderStills needs. */
export interface StillsRequest {
  pool: BrowserPool;
  build: StageBuild;
  options: ResolvedRenderOptions;
  /** frame indices of the turn (index === options.frames is the full turn, for loop checks) */
  indices: number[];
  transparent?: boolean;
  signal?: AbortSignal;
  /** part models for these stills, in front of the engine's source */
  models?: ModelSource;
}

/** Renders single frames as lossless PNGs in memory (thumbnails, tests): for a few frames only. */
export async function renderStills(req: StillsRequest): Promise<Buffer[]> {
  return req.pool.use(
    (session) =>
      withModelSource(session, req.models, async () => {
        const token = randomBytes(9).toString('base64url');
        const out = new Map<number, Buffer>();
        const off = session.server.onFrames(token, async (i, b) => {
          out.set(i, b);
        });
        try {
          await callStage(
            session.page,
            'renderStage.load',
            req.build,
            toStageOptions(req.options, { transparent: req.transparent ?? false }),
          );
          for (const index of req.indices) {
            req.signal?.throwIfAborted();
            await callStage(
              session.page,
              '__rfRun',
              captureRequest({ token, indices: [index], type: 'image/png', quality: 1, window: 1 }),
            );
          }
          return req.indices.map((i) => out.get(i)!);
        } finally {
          off();
          await callStage(session.page, 'renderStage.dispose').catch(() => {});
        }
      }),
    req.signal,
  );
}
