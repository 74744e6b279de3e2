/**
 * Renders pregen items through the job farm (`pregen --farm`): submits every item as a render
 * job of the `pregen` customer (the farm's content-addressed cache dedupes and reuses), follows
 * all of them with one query a second, and copies each finished render's main file into the
 * pregenerated cache. Interrupting stops the following, not the renders: a rerun finds them
 * finished (or still running) on the farm and picks them up.
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ensureCustomer } from '../auth/customers.js';
import { submitRender } from '../jobs/submit.js';
import type { RenderArtifacts } from '../jobs/render-row.js';
import { liveWorkers } from '../jobs/workers-repository.js';
import { makeTempDir } from '../temp-dirs.js';
import { oneLine } from './local-executor.js';
import type { PlanItem } from './plan.js';
import type { PregenObserver } from './progress.js';
import { publishFile, type PublishDeps } from './publish.js';

/** The customer that owns pregen's farm jobs. */
export const PREGEN_CUSTOMER = 'pregen';
const POLL_MS = 1_000;

export interface FarmRunOptions {
  signal: AbortSignal;
  observer: PregenObserver;
  pollMs?: number;
}

/** Submits and follows `items` (all action 'render') until each is done or failed, or the signal aborts. */
export async function runFarm(deps: PublishDeps, items: PlanItem[], opts: FarmRunOptions): Promise<void> {
  const { db } = deps;
  const { observer, signal } = opts;
  if ((await liveWorkers(db)).length === 0)
    observer.notice?.('no live workers: the jobs wait in the queue until one starts (render-farm worker)');

  const customer = await ensureCustomer(db.db, PREGEN_CUSTOMER);
  const following = new Map<string, PlanItem>();
  for (const item of items) {
    if (signal.aborted) break;
    try {
      const s = await submitRender(db, {
        customerId: customer.id,
        parts: item.partIds,
        state: null,
        options: item.input,
      });
      following.set(s.render.id, item);
      observer.start?.(item);
    } catch (err) {
      observer.fail?.(item, oneLine(err));
    }
  }

  while (following.size > 0 && !signal.aborted) {
    const rows = await db.db
      .selectFrom('renders')
      .select(['id', 'status', 'progress', 'artifacts', 'error', 'frames_per_second', 'render_ms'])
      .where('id', 'in', [...following.keys()])
      .execute();
    for (const r of rows) {
      const item = following.get(r.id)!;
      if (r.status === 'completed') {
        following.delete(r.id);
        await collect(deps, item, r.artifacts as RenderArtifacts | null, r, observer, signal);
      } else if (r.status === 'error') {
        following.delete(r.id);
        observer.fail?.(item, r.error ?? 'the render failed on the farm');
      } else {
        const frames = item.frames;
        observer.progress?.(item, {
          stage: 'render',
          frame: Math.round((r.progress ?? 0) * frames),
          total: frames,
          fps: 0,
        });
      }
    }
    if (following.size > 0) await sleep(opts.pollMs ?? POLL_MS, signal);
  }
  for (const item of following.values()) observer.cancel?.(item);
}

/** Copies a finished farm render's main file into the pregenerated cache. */
async function collect(
  deps: PublishDeps,
  item: PlanItem,
  artifacts: RenderArtifacts | null,
  r: { frames_per_second: number | null; render_ms: number | null },
  observer: PregenObserver,
  signal: AbortSignal,
): Promise<void> {
  const key = artifacts?.[item.options.format];
  if (!key) {
    observer.fail?.(item, `the farm render has no ${item.options.format} artifact`);
    return;
  }
  observer.progress?.(item, { stage: 'saving', frame: item.frames, total: item.frames, fps: r.frames_per_second ?? 0 });
  const tmp = await makeTempDir('pregen-copy');
  try {
    // copied, not pointed at: `pregen rm` may then delete cache files without touching renders
    const file = path.join(tmp, path.basename(key));
    await pipeline(await deps.store.read(key), createWriteStream(file), { signal });
    const bytes = await publishFile(deps, item, file, { renderMs: r.render_ms, framesPerSecond: r.frames_per_second });
    observer.done?.(item, { ms: r.render_ms ?? 0, bytes, fps: r.frames_per_second ?? 0 });
  } catch (err) {
    if (signal.aborted) observer.cancel?.(item);
    else observer.fail?.(item, `copying the farm render failed: ${oneLine(err)}`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
