/**
 * Many single stills in one page session (part thumbnails): per build, load it, render its hero
 * frame, capture a lossless PNG, next build; no page reload, no dispose between builds nor after
 * the last (the cached environment and compiled shaders carry over to the next batch; the next
 * load of any render disposes the last part), no warm-up frames (`warm: false`). The
 * loop runs in the page in one evaluate; each PNG is POSTed through the same capture code as
 * every other render (page-capture.ts `__rfRun`, toBlob PNG), so the pixels are those of a
 * single still. Node's work on a still (WebP encode, store) overlaps the page's next build: the
 * receiver acknowledges at once and keeps up to IN_FLIGHT handlers running.
 *
 * What a part costs in the page this way against a full render per part: docs/benchmarks.md,
 * "Part thumbnails".
 * test/thumbnails/batch-thumbnails.test.ts checks the WebP bytes equal the one-part path's.
 *
 * A build that fails to load or capture is reported and skipped; the rest still render.
 */
import { randomBytes } from 'node:crypto';
import type { ResolvedRenderOptions } from '../model/render-options.js';
import { toStageOptions, type StageBuild } from '../model/stage-contract.js';
import type { BrowserPool } from './browser-pool.js';
import { callStage, injectPageSource } from './call-stage.js';
import type { PageBatchRequest } from './page-capture.js';

/** Stills handed to Node handlers before the page waits for them (bounds memory). */
const IN_FLIGHT = 3;

export interface BatchStillsRequest {
  pool: BrowserPool;
  builds: readonly StageBuild[];
  options: ResolvedRenderOptions;
  transparent?: boolean;
  signal?: AbortSignal;
  /**
   * Called with each still (PNG) as it arrives, in build order, while the page renders the
   * next ones; a rejection counts as that build's failure.
   */
  onStill(index: number, png: Buffer): Promise<void>;
}

export interface BatchStillsResult {
  /** builds that did not render (load, capture or onStill failed), in order */
  failures: Array<{ index: number; error: string }>;
}

/** The in-page loop (plain JavaScript, as page-capture.ts explains): `__rfStillsBatch` and `__rfAbortBatch` of PageHelpers. */
const BATCH_SOURCE = `
(() => {
  if (window.__rfStillsBatch) return;
  window.__rfAbortBatch = (reason) => {
    window.__rfBatchAbort = reason;
    window.__rfAbort = reason;
  };
  window.__rfStillsBatch = async (req) => {
    window.__rfBatchAbort = null;
    const errors = [];
    // no renderStage.dispose() at the end: it would also drop the cached environment, which the
    // next batch would prefilter again (~0.4 s CPU a batch); the next load disposes the last part
    for (let i = 0; i < req.builds.length; i++) {
      if (window.__rfBatchAbort) throw new Error(window.__rfBatchAbort);
      try {
        const info = await window.renderStage.load(req.builds[i], req.options);
        await window.__rfRun(Object.assign({}, req.capture, { token: req.token + 'b' + i, indices: [info.heroFrame] }));
      } catch (err) {
        errors.push({ index: i, error: (err && err.message) || String(err) });
      }
    }
    return errors;
  };
})();
`;

/** Renders the hero still of each build, one after another in one page session. */
export async function renderStillsBatch(req: BatchStillsRequest): Promise<BatchStillsResult> {
  if (req.builds.length === 0) return { failures: [] };
  return req.pool.use(async (session) => {
    const { page, server } = session;
    const token = randomBytes(9).toString('base64url');
    const failures = new Map<number, string>();
    const running = new Set<Promise<void>>();
    const received = new Set<number>();
    const offs = req.builds.map((_, i) =>
      server.onFrames(`${token}b${i}`, async (_frame, png) => {
        received.add(i);
        const p = req.onStill(i, png).catch((err: unknown) => {
          failures.set(i, err instanceof Error ? err.message : String(err));
        });
        running.add(p);
        void p.finally(() => running.delete(p));
        // the page goes on to the next build unless Node is IN_FLIGHT stills behind
        while (running.size >= IN_FLIGHT) await Promise.race(running);
      }),
    );
    const onAbort = () => {
      void callStage(page, '__rfAbortBatch', 'render cancelled').catch(() => {});
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      req.signal?.throwIfAborted();
      await injectPageSource(page, BATCH_SOURCE);
      const batch: PageBatchRequest = {
        token,
        builds: req.builds,
        // no warm-up: one frame per load (see the header)
        options: toStageOptions(req.options, { transparent: req.transparent ?? false, warm: false }),
        capture: { frames: { type: 'image/png', quality: 1 }, h264: null, stills: [], window: 1 },
      };
      const errors = await callStage(page, '__rfStillsBatch', batch);
      await Promise.all(running);
      req.signal?.throwIfAborted();
      for (const e of errors) failures.set(e.index, e.error);
      req.builds.forEach((_, i) => {
        if (!received.has(i) && !failures.has(i)) failures.set(i, 'no still was captured');
      });
      return { failures: [...failures].sort((a, b) => a[0] - b[0]).map(([index, error]) => ({ index, error })) };
    } catch (err) {
      await Promise.allSettled(running);
      if (req.signal?.aborted) throw req.signal.reason;
      throw err;
    } finally {
      req.signal?.removeEventListener('abort', onAbort);
      offs.forEach((off) => off());
    }
  }, req.signal);
}
