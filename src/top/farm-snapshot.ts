/**
 * What `render-farm top` shows, read from PostgreSQL in a handful of statements (any machine
 * that reaches the database sees the whole farm): workers with their heartbeats and current
 * render, queue depth by kind (graphile-worker's jobs) and by customer, running and recent
 * renders, error counts. A render is shown under its first job's id; renders are shared
 * between customers, so `customers` lists everyone waiting on it.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { queueDepthByKind } from '../jobs/queue/graphile-tables.js';
import { DEAD_AFTER_S } from '../jobs/sweeper.js';
import { storeUsage } from '../jobs/store-usage.js';
import type { JobStatus } from '../model/job-status.js';

export interface WorkerRow {
  id: string;
  host: string;
  pid: number;
  backend: string;
  state: 'idle' | 'rendering' | 'silent' | 'stopped';
  jobId: string | null;
  progress: number | null;
  /** frames/s of the current render, estimated from its progress */
  fps: number | null;
  /** the chunk (index) of a split render this worker renders now; null when it renders none */
  chunk: number | null;
  heartbeatAgoS: number;
}

export interface QueueKind {
  kind: 'renders' | 'pregen' | 'thumbnails' | 'webhooks' | string;
  queued: number;
  running: number;
}

export interface CustomerDepth {
  customer: string;
  queued: number;
  processing: number;
}

export interface JobRow {
  jobId: string;
  renderId: string;
  status: JobStatus;
  progress: number;
  customers: string[];
  format: string;
  size: string;
  profile: string;
  worker: string | null;
  /** seconds since it was queued (waiting), started (running) or how long it took (finished) */
  seconds: number;
  error: string | null;
  finishedAgoS: number | null;
}

export interface FarmSnapshot {
  at: Date;
  workers: WorkerRow[];
  queue: QueueKind[];
  customers: CustomerDepth[];
  running: JobRow[];
  waiting: JobRow[];
  recent: JobRow[];
  errors: { lastHour: number; lastDay: number; retrying: number; webhooksFailedDay: number };
  /** renders' files in the artifact store (a running total, sql/0013) and what retention removed */
  store: { bytes: number; renders: number; sweptRenders: number; sweptBytes: number };
}

const PREGEN_CUSTOMER = 'pregen';
/** stopped or silent workers stay on screen this long */
const GONE_FOR_S = 300;

interface RenderJoined {
  job_id: string;
  render_id: string;
  status: JobRow['status'];
  progress: number;
  customers: string[];
  format: string;
  width: number | null;
  height: number | null;
  profile: string | null;
  frames: number | null;
  worker_id: string | null;
  chunk_total: number | null;
  chunks_done: number | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  error: string | null;
  render_ms: number | null;
  now: Date;
}

/**
 * Renders with their first job and every customer; `where` picks which. The renders are picked
 * (ordered, limited) first and their jobs looked up per row: joining and grouping every job of
 * the period before the limit took seconds on a table of 1M renders (bench:control-plane).
 */
function renderRows(db: Db, where: ReturnType<typeof sql>, order: ReturnType<typeof sql>, limit: number) {
  return sql<RenderJoined>`
    SELECT (SELECT j.id FROM jobs j WHERE j.render_id = r.id ORDER BY j.created_at LIMIT 1) AS job_id, r.id AS render_id, r.status, r.progress,
           ARRAY(SELECT DISTINCT c.name FROM jobs j JOIN customers c ON c.id = j.customer_id WHERE j.render_id = r.id ORDER BY c.name) AS customers, r.format,
           (r.request->'options'->>'width')::int AS width, (r.request->'options'->>'height')::int AS height,
           r.request->'options'->>'profile' AS profile, (r.request->'options'->>'frames')::int AS frames,
           r.worker_id, r.chunk_total, r.chunks_done, r.created_at, r.started_at, r.finished_at, r.error, r.render_ms, now() AS now
      FROM renders r
     WHERE ${where} AND EXISTS (SELECT 1 FROM jobs j WHERE j.render_id = r.id)
     ORDER BY ${order}
     LIMIT ${limit}`.execute(db.db);
}

function toJobRow(r: RenderJoined, workerHost: Map<string, string>): JobRow {
  const now = new Date(r.now).getTime();
  const ms = (d: Date | null) => (d ? new Date(d).getTime() : now);
  const seconds =
    r.status === 'processing'
      ? (now - ms(r.started_at)) / 1000
      : r.status === 'queued'
        ? (now - ms(r.created_at)) / 1000
        : r.render_ms !== null
          ? r.render_ms / 1000
          : (ms(r.finished_at) - ms(r.started_at ?? r.created_at)) / 1000;
  return {
    jobId: r.job_id,
    renderId: r.render_id,
    status: r.status,
    progress: r.status === 'completed' ? 1 : Number(r.progress),
    customers: r.customers,
    format: r.format,
    size: r.width && r.height ? `${r.width}x${r.height}` : '',
    profile: r.profile ?? '',
    // a split render has no one worker: its chunks have (the WORKERS rows show them)
    worker: r.worker_id
      ? (workerHost.get(r.worker_id) ?? r.worker_id)
      : r.chunk_total
        ? `${r.chunks_done ?? 0}/${r.chunk_total} chunks`
        : null,
    seconds: Math.max(0, seconds),
    error: r.error,
    finishedAgoS: r.finished_at ? Math.max(0, (now - new Date(r.finished_at).getTime()) / 1000) : null,
  };
}

/** deadAfterS: the workerDeadAfterSeconds setting (a worker silent longer is shown `silent`) */
export async function farmSnapshot(
  db: Db,
  opts: { recent?: number; waiting?: number; deadAfterS?: number } = {},
): Promise<FarmSnapshot> {
  const workers = await sql<{
    id: string;
    hostname: string;
    pid: number;
    backend: string | null;
    stopped_at: Date | null;
    beat_s: number;
  }>`
    -- a GPU behind EGL (a vendor's driver) shows as egl+gpu; 'gpu' is ANGLE over Vulkan (render/gpu-probe.ts)
    SELECT id, hostname, pid, backend->>'backend' || CASE WHEN backend->'gpu'->>'found' = 'true' AND backend->>'backend' <> 'gpu' THEN '+gpu' ELSE '' END AS backend, stopped_at, extract(epoch FROM now() - last_seen)::float AS beat_s
      FROM workers
     WHERE stopped_at IS NULL OR stopped_at > now() - make_interval(secs => ${GONE_FOR_S})
     ORDER BY hostname, pid`.execute(db.db);
  const hosts = new Map(workers.rows.map((w) => [w.id, `${w.hostname}:${w.pid}`]));

  const [running, waiting, recent] = await Promise.all([
    renderRows(db, sql`r.status = 'processing'`, sql`r.started_at`, 50),
    renderRows(db, sql`r.status = 'queued'`, sql`r.created_at`, opts.waiting ?? 8),
    renderRows(
      db,
      sql`r.status IN ('completed', 'error') AND r.expired_at IS NULL AND r.finished_at > now() - interval '1 day'`,
      sql`r.finished_at DESC`,
      opts.recent ?? 8,
    ),
  ]);

  const byWorker = new Map<string, RenderJoined>();
  for (const r of running.rows) if (r.worker_id && !byWorker.has(r.worker_id)) byWorker.set(r.worker_id, r);
  // workers rendering chunks of split renders (of their current plan)
  const chunkWorkers = await sql<{ worker_id: string; render_id: string; idx: number }>`
    SELECT c.worker_id, c.render_id, c.idx FROM render_chunks c JOIN renders r ON r.id = c.render_id AND r.chunk_plan = c.plan
     WHERE c.status = 'processing' AND r.status = 'processing' AND c.worker_id IS NOT NULL`.execute(db.db);
  const chunkOf = new Map<string, number>();
  for (const c of chunkWorkers.rows) {
    if (!chunkOf.has(c.worker_id)) chunkOf.set(c.worker_id, c.idx);
    const r = running.rows.find((x) => x.render_id === c.render_id);
    if (r && !byWorker.has(c.worker_id)) byWorker.set(c.worker_id, r);
  }
  const workerRows: WorkerRow[] = workers.rows
    .filter((w) => w.stopped_at === null || w.beat_s < GONE_FOR_S)
    .map((w) => {
      const job = byWorker.get(w.id);
      const elapsed = job?.started_at ? (new Date(job.now).getTime() - new Date(job.started_at).getTime()) / 1000 : 0;
      const fps = job && job.frames && elapsed > 0 ? (Number(job.progress) * job.frames) / elapsed : null;
      const state: WorkerRow['state'] = w.stopped_at
        ? 'stopped'
        : w.beat_s > (opts.deadAfterS ?? DEAD_AFTER_S)
          ? 'silent'
          : job
            ? 'rendering'
            : 'idle';
      return {
        id: w.id,
        host: w.hostname,
        pid: w.pid,
        backend: w.backend ?? '?',
        state,
        jobId: job?.job_id ?? null,
        progress: job ? Number(job.progress) : null,
        fps: fps !== null ? Math.round(fps * 10) / 10 : null,
        chunk: chunkOf.get(w.id) ?? null,
        heartbeatAgoS: Math.max(0, Math.round(w.beat_s)),
      };
    });

  const queue = { rows: await queueDepthByKind(db.db, PREGEN_CUSTOMER) };
  const kinds = ['renders', 'pregen', 'thumbnails', 'webhooks'];
  const queueRows: QueueKind[] = [
    ...kinds.map((kind) => queue.rows.find((q) => q.kind === kind) ?? { kind, queued: 0, running: 0 }),
    ...queue.rows.filter((q) => !kinds.includes(q.kind)),
  ];

  const customers = await sql<CustomerDepth>`
    SELECT c.name AS customer,
           count(*) FILTER (WHERE r.status = 'queued')::int AS queued,
           count(*) FILTER (WHERE r.status = 'processing')::int AS processing
      FROM jobs j JOIN renders r ON r.id = j.render_id JOIN customers c ON c.id = j.customer_id
     WHERE r.status IN ('queued', 'processing')
     GROUP BY c.name
     ORDER BY count(*) DESC, c.name
     LIMIT 10`.execute(db.db);

  const errors = await sql<{ hour: number; day: number; retrying: number; hooks: number }>`
    SELECT (SELECT count(*) FROM renders WHERE status = 'error' AND expired_at IS NULL AND finished_at > now() - interval '1 hour')::int AS hour,
           (SELECT count(*) FROM renders WHERE status = 'error' AND expired_at IS NULL AND finished_at > now() - interval '1 day')::int AS day,
           (SELECT count(*) FROM renders WHERE status IN ('queued', 'processing') AND error IS NOT NULL)::int AS retrying,
           (SELECT count(*) FROM webhook_deliveries WHERE status = 'failed' AND finished_at > now() - interval '1 day')::int AS hooks`.execute(
    db.db,
  );
  const e = errors.rows[0]!;
  const u = await storeUsage(db);

  return {
    at: new Date(),
    workers: workerRows,
    queue: queueRows,
    customers: customers.rows,
    running: running.rows.map((r) => toJobRow(r, hosts)),
    waiting: waiting.rows.map((r) => toJobRow(r, hosts)),
    recent: recent.rows.map((r) => toJobRow(r, hosts)),
    errors: { lastHour: e.hour, lastDay: e.day, retrying: e.retrying, webhooksFailedDay: e.hooks },
    store: { bytes: u.renderBytes, renders: u.renders, sweptRenders: u.sweptRenders, sweptBytes: u.sweptBytes },
  };
}

/** One minute of finished renders. */
export interface MinuteCount {
  /** the minute's start */
  t: Date;
  count: number;
}

/**
 * Renders finished (completed) per minute over the last `minutes`, oldest first, empty minutes
 * included: the web console's overview chart.
 */
export async function rendersPerMinute(db: Db, minutes = 60): Promise<MinuteCount[]> {
  const rows = await sql<{ t: Date; count: number }>`
    SELECT m.t, count(r.id)::int AS count
      FROM generate_series(date_trunc('minute', now()) - make_interval(mins => ${minutes - 1}), date_trunc('minute', now()), interval '1 minute') AS m(t)
      LEFT JOIN renders r ON r.status = 'completed' AND r.finished_at >= m.t AND r.finished_at < m.t + interval '1 minute'
     GROUP BY m.t
     ORDER BY m.t`.execute(db.db);
  return rows.rows.map((r) => ({ t: new Date(r.t), count: r.count }));
}
