/**
 * Runs a pregen plan: reports the plan, renders the items marked `render` locally or through
 * the farm, and sums up. Library function: the CLI wraps it with flags, UI and exit codes.
 */
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { createRenderEngine, type RenderEngine } from '../render/engine.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { runFarm } from './farm-executor.js';
import { runLocal } from './local-executor.js';
import type { PlanItem } from './plan.js';
import type { PregenObserver } from './progress.js';

export interface RunnerOptions {
  cfg: Config;
  db: Db;
  store: ArtifactStore;
  rendererVersion: string;
  /** renderers at once (local) */
  concurrency: number;
  /** enqueue on the job farm instead of rendering here */
  farm: boolean;
  signal: AbortSignal;
  observers: PregenObserver[];
  /** tests inject engines; default: createRenderEngine(cfg) */
  createEngine?: () => Promise<RenderEngine>;
}

/** One item that did not make it, for the failures summary. */
export interface FailedItem {
  index: number;
  label: string;
  variant: string;
  reason: string;
}

/** What a run did. */
export interface RunSummary {
  planned: number;
  rendered: number;
  cached: number;
  duplicates: number;
  failed: FailedItem[];
  cancelled: number;
  interrupted: boolean;
  elapsedMs: number;
  /** frames drawn by renders that completed, and their rate over the run */
  frames: number;
  framesPerSecond: number;
  /** combination keys rendered by this run */
  keys: string[];
  /** the WebGL backend of the local renderers (null on the farm or when nothing rendered here) */
  renderer: { backend: string; glRenderer: string } | null;
}

/** Fans events out to several observers. */
export function fanOut(observers: PregenObserver[]): Required<PregenObserver> {
  const call =
    <K extends keyof PregenObserver>(k: K) =>
    (...args: Parameters<Required<PregenObserver>[K]>) => {
      for (const o of observers) (o[k] as ((...a: unknown[]) => void) | undefined)?.(...args);
    };
  return {
    plan: call('plan'),
    start: call('start'),
    progress: call('progress'),
    done: call('done'),
    fail: call('fail'),
    cancel: call('cancel'),
    notice: call('notice'),
    finish: call('finish'),
  };
}

/** Runs `items`; never throws for one item's failure (it is in `failed`), only for setup failures (no Chromium). */
export async function runPregen(items: PlanItem[], opts: RunnerOptions): Promise<RunSummary> {
  const started = performance.now();
  const summary: RunSummary = {
    planned: items.length,
    rendered: 0,
    cached: items.filter((i) => i.action === 'cached').length,
    duplicates: items.filter((i) => i.action === 'duplicate').length,
    failed: [],
    cancelled: 0,
    interrupted: false,
    elapsedMs: 0,
    frames: 0,
    framesPerSecond: 0,
    keys: [],
    renderer: null,
  };
  const tally: PregenObserver = {
    done: (item) => {
      summary.rendered++;
      summary.frames += item.frames;
      // the runner only ever reports its own plan items
      summary.keys.push((item as PlanItem).key);
    },
    fail: (item, reason) =>
      summary.failed.push({ index: item.index, label: item.label, variant: item.variant, reason }),
    cancel: () => summary.cancelled++,
  };
  const observer = fanOut([tally, ...opts.observers]);
  observer.plan(items);
  for (const item of items) if (item.action === 'invalid') observer.fail(item, item.reason ?? 'invalid');

  const todo = items.filter((i) => i.action === 'render');
  const deps = { db: opts.db, store: opts.store, rendererVersion: opts.rendererVersion };
  let renderStart = 0;
  try {
    if (todo.length && !opts.signal.aborted) {
      renderStart = performance.now();
      if (opts.farm) await runFarm(deps, todo, { signal: opts.signal, observer });
      else {
        const createEngine = opts.createEngine ?? (() => createRenderEngine(opts.cfg));
        const info = await runLocal(deps, todo, {
          concurrency: opts.concurrency,
          signal: opts.signal,
          observer,
          createEngine,
        });
        if (info) summary.renderer = { backend: info.backend, glRenderer: info.glRenderer };
      }
    } else if (opts.signal.aborted) {
      for (const item of todo) observer.cancel(item);
    }
  } finally {
    summary.interrupted = opts.signal.aborted;
    summary.elapsedMs = Math.round(performance.now() - started);
    const renderSecs = renderStart ? (performance.now() - renderStart) / 1000 : 0;
    summary.framesPerSecond = renderSecs > 0 ? Math.round((summary.frames / renderSecs) * 100) / 100 : 0;
    observer.finish({ interrupted: summary.interrupted });
  }
  return summary;
}
