/**
 * Prometheus metrics (prom-client). Counters and histograms count what this process did
 * (serve: submissions; worker: renders); the farm-wide gauges (queue depth, live workers,
 * renders by status) are read from PostgreSQL at scrape time, so any `serve` shows the farm.
 */
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'render_farm_process_' });

// every metric registers in this registry only (not prom-client's global one)
function counter<L extends string = never>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
): client.Counter<L> {
  return new client.Counter<L>({ name, help, labelNames, registers: [registry] });
}

function gauge<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): client.Gauge<L> {
  return new client.Gauge<L>({ name, help, labelNames, registers: [registry] });
}

export const submissions = counter(
  'render_farm_submissions_total',
  'Render submissions by outcome: new (rendered), reused (in flight), cached (already done)',
  ['outcome', 'format'],
);

export const renderResults = counter(
  'render_farm_renders_finished_total',
  'Renders finished by this process, by result (completed, failed, retried)',
  ['result'],
);

export const renderDuration = new client.Histogram({
  name: 'render_farm_render_duration_seconds',
  help: 'Wall time of completed renders (load, frames, encode)',
  labelNames: ['format'] as const,
  buckets: [2, 5, 10, 20, 40, 60, 120, 300, 600],
  registers: [registry],
});

export const framesPerSecond = gauge(
  'render_farm_frames_per_second',
  'Frames per second of the last completed render',
  ['format'],
);

/** Farm-wide gauges, filled by a collect callback the server installs. */
export const queueDepth = gauge(
  'render_farm_queue_depth',
  'Jobs waiting for a worker, by kind (render; thumbnail counted in parts)',
  ['kind'],
);
export const processing = gauge(
  'render_farm_renders_processing',
  'Jobs being worked on now, by kind (render; thumbnail counted in parts)',
  ['kind'],
);
export const chunkCount = gauge(
  'render_farm_chunks',
  'Frame-range chunks of split renders, by state (queued, processing); their renders count once in render_farm_renders_processing',
  ['state'],
);
export const liveWorkerCount = gauge('render_farm_workers_live', 'Workers with a recent heartbeat');

/** Storage lifecycle (sql/0013): the store's size and what retention removed, farm-wide from the database at scrape time. */
export const storeBytes = gauge(
  'render_farm_store_bytes',
  "Bytes in the artifact store by kind: renders (renders' files, bounded by retention), pregen (pregenerated copies)",
  ['kind'],
);
export const storeRenders = gauge('render_farm_store_renders', 'Renders whose files are in the store');
export const storeSwept = gauge(
  'render_farm_store_swept',
  'Removed by retention since the farm began (from the database): renders (their files), bytes, rows',
  ['what'],
);
/** this process's retention passes (the worker that ran them): renders expired, files and rows deleted */
export const retentionSwept = counter(
  'render_farm_retention_swept_total',
  'What retention passes run by this process removed: renders, files, rows',
  ['what'],
);
