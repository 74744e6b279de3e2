/**
 * Prometheus metrics (prom-client). Counters and histograms count what this process did
 * (serve: submissions; worker: renders); the farm-wide gauges (queue depth, live workers,
 * renders by status) are read from PostgreSQL at scrape time, so any `serve` shows the farm.
 */
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'render_farm_process_' });

export const submissions = new client.Counter({
  name: 'render_farm_submissions_total',
  help: 'Render submissions by outcome: new (rendered), reused (in flight), cached (already done)',
  labelNames: ['outcome', 'format'] as const,
  registers: [registry],
});

export const renderResults = new client.Counter({
  name: 'render_farm_renders_finished_total',
  help: 'Renders finished by this process, by result (completed, failed, retried)',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const renderDuration = new client.Histogram({
  name: 'render_farm_render_duration_seconds',
  help: 'Wall time of completed renders (load, frames, encode)',
  labelNames: ['format'] as const,
  buckets: [2, 5, 10, 20, 40, 60, 120, 300, 600],
  registers: [registry],
});

export const framesPerSecond = new client.Gauge({
  name: 'render_farm_frames_per_second',
  help: 'Frames per second of the last completed render',
  labelNames: ['format'] as const,
  registers: [registry],
});

/** Farm-wide gauges, filled by a collect callback the server installs. */
export const queueDepth = new client.Gauge({ name: 'render_farm_queue_depth', help: 'Jobs waiting for a worker, by kind (render; thumbnail counted in parts)', labelNames: ['kind'], registers: [registry] });
export const processing = new client.Gauge({ name: 'render_farm_renders_processing', help: 'Jobs being worked on now, by kind (render; thumbnail counted in parts)', labelNames: ['kind'], registers: [registry] });
export const chunkCount = new client.Gauge({ name: 'render_farm_chunks', help: 'Frame-range chunks of split renders, by state (queued, processing); their renders count once in render_farm_renders_processing', labelNames: ['state'], registers: [registry] });
export const liveWorkerCount = new client.Gauge({ name: 'render_farm_workers_live', help: 'Workers with a recent heartbeat', registers: [registry] });

/** Storage lifecycle (sql/0013): the store's size and what retention removed, farm-wide from the database at scrape time. */
export const storeBytes = new client.Gauge({ name: 'render_farm_store_bytes', help: "Bytes in the artifact store by kind: renders (renders' files, bounded by retention), pregen (pregenerated copies)", labelNames: ['kind'], registers: [registry] });
export const storeRenders = new client.Gauge({ name: 'render_farm_store_renders', help: 'Renders whose files are in the store', registers: [registry] });
export const storeSwept = new client.Gauge({ name: 'render_farm_store_swept', help: 'Removed by retention since the farm began (from the database): renders (their files), bytes, rows', labelNames: ['what'], registers: [registry] });
/** this process's retention passes (the worker that ran them): renders expired, files and rows deleted */
export const retentionSwept = new client.Counter({ name: 'render_farm_retention_swept_total', help: 'What retention passes run by this process removed: renders, files, rows', labelNames: ['what'] as const, registers: [registry] });
