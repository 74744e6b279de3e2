/**
 * Renders pregen items on this machine: `concurrency` renderers, each its own RenderEngine
 * (one warm browser each), pulling items from one queue. A finished render is stored first and
 * keyed second (publish.ts), so an interrupted item leaves nothing visible and reruns.
 */
import fs from 'node:fs/promises';
import type { EngineInfo, RenderEngine } from '../render/engine.js';
import { makeTempDir } from '../temp-dirs.js';
import type { PlanItem } from './plan.js';
import type { PregenObserver } from './progress.js';
import { publishFile, type PublishDeps } from './publish.js';

export interface LocalRunOptions {
  concurrency: number;
  signal: AbortSignal;
  observer: PregenObserver;
  /** one per concurrent renderer; created only when there is something to render */
  createEngine: () => Promise<RenderEngine>;
}

/**
 * Renders `items` (all action 'render'); resolves when all are done, failed or cancelled,
 * with the WebGL backend the renderers drew with.
 */
export async function runLocal(
  deps: PublishDeps,
  items: PlanItem[],
  opts: LocalRunOptions,
): Promise<EngineInfo | null> {
  const queue = [...items];
  const slots = Math.max(1, Math.min(opts.concurrency, queue.length));
  const engines: RenderEngine[] = [];
  try {
    // start the browsers together: each takes seconds to launch and load the stage
    const created = await Promise.allSettled(Array.from({ length: slots }, () => opts.createEngine()));
    for (const c of created) if (c.status === 'fulfilled') engines.push(c.value);
    const failure = created.find((c): c is PromiseRejectedResult => c.status === 'rejected');
    if (engines.length === 0) throw failure?.reason ?? new Error('no renderer could be started');
    if (failure)
      opts.observer.notice?.(
        `only ${engines.length} of ${slots} renderers started: ${(failure.reason as Error).message}`,
      );
    // every engine of a machine takes the same backend (render/engine.ts glPolicy): ask one;
    // without WebGL each item fails and says why, as before
    const info = await engines[0]!.info().catch(() => null);
    if (info) opts.observer.notice?.(`rendering with WebGL ${info.backend} (${info.glRenderer})`);
    await Promise.all(engines.map((engine) => drain(deps, engine, queue, opts)));
    return info;
  } finally {
    for (const item of queue) opts.observer.cancel?.(item);
    await Promise.all(engines.map((e) => e.close().catch(() => {})));
  }
}

async function drain(deps: PublishDeps, engine: RenderEngine, queue: PlanItem[], opts: LocalRunOptions): Promise<void> {
  for (let item = queue.shift(); item; item = queue.shift()) {
    if (opts.signal.aborted) {
      opts.observer.cancel?.(item);
      continue;
    }
    await renderOne(deps, engine, item, opts);
  }
}

async function renderOne(
  deps: PublishDeps,
  engine: RenderEngine,
  item: PlanItem,
  opts: LocalRunOptions,
): Promise<void> {
  const { observer, signal } = opts;
  observer.start?.(item);
  const tmp = await makeTempDir('pregen');
  const started = performance.now();
  try {
    const format = item.options.format;
    const result = await engine.render({
      build: { parts: item.parts, state: null, ...(Object.keys(item.models).length ? { models: item.models } : {}) },
      options: item.options,
      outDir: tmp,
      outputs: { [format]: true, screenshot: false },
      signal,
      onProgress: (p) => {
        if (p.stage === 'render' || p.stage === 'encode')
          observer.progress?.(item, { stage: p.stage, frame: p.frame, total: p.total, fps: p.fps });
      },
    });
    const file = result.files.find((f) => f.kind === format);
    if (!file) throw new Error(`the renderer wrote no ${format}`);
    observer.progress?.(item, {
      stage: 'saving',
      frame: result.frames,
      total: result.frames,
      fps: result.framesPerSecond,
    });
    // a cancel during the upload still publishes: the bytes are whole, and the work is done
    const bytes = await publishFile(deps, item, file.path, {
      renderMs: result.timings.total,
      framesPerSecond: result.framesPerSecond,
    });
    observer.done?.(item, { ms: Math.round(performance.now() - started), bytes, fps: result.framesPerSecond });
  } catch (err) {
    if (signal.aborted) observer.cancel?.(item);
    else observer.fail?.(item, oneLine(err));
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** First line of an error message (browser and ffmpeg errors can run to pages). */
export function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0]!.slice(0, 300);
}
