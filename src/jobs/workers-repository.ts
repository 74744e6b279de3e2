/**
 * Worker processes as seen through their heartbeats. Every stamp is the database's clock
 * (now()), the same clock the sweeper and /health compare against: a worker's own clock may be
 * off by any amount.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { DEAD_AFTER_S } from './sweeper.js';
import { DrainRefusedError } from './errors.js';

export interface WorkerRecord {
  id: string;
  hostname: string;
  pid: number;
  concurrency: number;
  backend: Record<string, unknown> | null;
  startedAt: Date;
  lastSeen: Date;
}

export async function liveWorkers(db: Db): Promise<WorkerRecord[]> {
  const rows = await db.db
    .selectFrom('workers')
    .select(['id', 'hostname', 'pid', 'concurrency', 'backend', 'started_at', 'last_seen'])
    .where('stopped_at', 'is', null)
    .where('last_seen', '>=', sql<Date>`now() - make_interval(secs => ${DEAD_AFTER_S})`)
    .orderBy('started_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    hostname: r.hostname,
    pid: r.pid,
    concurrency: r.concurrency,
    backend: r.backend as Record<string, unknown> | null,
    startedAt: new Date(r.started_at),
    lastSeen: new Date(r.last_seen),
  }));
}

/** Registers a starting worker process (`version`: the package's; `rendererVersion`: what its renders are keyed with). */
export async function registerWorker(
  db: Db,
  w: {
    id: string;
    hostname: string;
    pid: number;
    concurrency: number;
    backend: unknown;
    version?: string;
    rendererVersion?: string;
  },
): Promise<void> {
  await db.db
    .insertInto('workers')
    .values({
      id: w.id,
      hostname: w.hostname,
      pid: w.pid,
      concurrency: w.concurrency,
      backend: JSON.stringify(w.backend),
      version: w.version ?? null,
      renderer_version: w.rendererVersion ?? null,
      started_at: sql`now()`,
      last_seen: sql`now()`,
    })
    .execute();
}

/** What a heartbeat reports besides being alive (worker-report.ts). */
export interface HeartbeatReport {
  /** bytes */
  memoryRss: number;
  memoryHeap: number;
  /** queue jobs this process finished, and those that failed (counted since it started) */
  jobsDone: number;
  jobsFailed: number;
  lastError: string | null;
}

/** The SET list that records a report on `workers w` (the last error is stamped when the failure count rose). */
function reportSet(r: HeartbeatReport) {
  return sql`memory_rss = ${Math.round(r.memoryRss)}, memory_heap = ${Math.round(r.memoryHeap)}, jobs_done = ${r.jobsDone},
    last_error = COALESCE(${r.lastError}::text, w.last_error),
    last_error_at = CASE WHEN ${r.jobsFailed}::int > w.jobs_failed THEN now() ELSE w.last_error_at END,
    jobs_failed = ${r.jobsFailed}`;
}

/**
 * A heartbeat: the worker is alive now, holding these graphile-worker ids, with what it reports
 * (the last error is stamped when the failure count rose). It also revives a worker the sweeper
 * took for dead (silent past the bound, e.g. a long pause or a database outage): otherwise it
 * would vanish from /health and never be swept if it died later. Returns whether it had been
 * marked stopped, and whether a drain was asked for (`workers drain`, the console).
 */
export async function recordHeartbeat(
  db: Db,
  id: string,
  graphileIds: readonly string[],
  report?: HeartbeatReport,
): Promise<{ revived: boolean; drainRequested: boolean }> {
  const reported = report ? sql`, ${reportSet(report)}` : sql``;
  const { rows } = await sql<{ revived: boolean; drain: boolean }>`
    WITH prev AS (SELECT id, stopped_at FROM workers WHERE id = ${id} FOR UPDATE)
    UPDATE workers w SET last_seen = now(), stopped_at = NULL, graphile_ids = ${sql.val([...graphileIds])}::text[] ${reported}
    FROM prev WHERE w.id = prev.id
    RETURNING prev.stopped_at IS NOT NULL AS revived, w.drain_requested_at IS NOT NULL AS drain`.execute(db.db);
  return { revived: rows[0]?.revived ?? false, drainRequested: rows[0]?.drain ?? false };
}

/** A worker that stopped cleanly, with its last report (what it finished while draining counts too). */
export async function markWorkerStopped(db: Db, id: string, report?: HeartbeatReport): Promise<void> {
  await sql`UPDATE workers w SET stopped_at = now() ${report ? sql`, ${reportSet(report)}` : sql``} WHERE w.id = ${id}`.execute(
    db.db,
  );
}

/** One worker process as the database sees it now, or null when unknown. */
export async function getWorkerState(
  db: Db,
  id: string,
): Promise<{
  id: string;
  hostname: string;
  pid: number;
  graphileIds: string[];
  alive: boolean;
  silentSeconds: number;
} | null> {
  const row = await db.db
    .selectFrom('workers')
    .select(['id', 'hostname', 'pid', 'graphile_ids'])
    .select(
      sql<boolean>`stopped_at IS NULL AND last_seen >= now() - make_interval(secs => ${DEAD_AFTER_S})`.as('alive'),
    )
    .select(sql<number>`extract(epoch FROM now() - last_seen)::float`.as('silent'))
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        hostname: row.hostname,
        pid: row.pid,
        graphileIds: row.graphile_ids,
        alive: row.alive,
        silentSeconds: Math.max(0, Math.round(row.silent)),
      }
    : null;
}

/** A worker as `workers show` and the console's worker page show it. */
export interface WorkerDetail {
  id: string;
  hostname: string;
  pid: number;
  concurrency: number;
  backend: Record<string, unknown> | null;
  version: string | null;
  rendererVersion: string | null;
  /**
   * running: heartbeating, taking jobs; draining: asked to drain, finishing what it runs;
   * stopped: exited cleanly (or swept); gone: silent past the bound, not swept yet
   */
  state: 'running' | 'draining' | 'stopped' | 'gone';
  startedAt: Date;
  lastSeen: Date;
  stoppedAt: Date | null;
  /** seconds from start to now (or to its last heartbeat, once it stopped or went silent) */
  uptimeS: number;
  /** seconds since its last heartbeat */
  silentS: number;
  /** bytes at its last heartbeat; null before it reported any */
  memory: { rss: number; heap: number } | null;
  jobsDone: number;
  jobsFailed: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  drainRequestedAt: Date | null;
  /** what it renders now: whole renders, and chunks of split ones */
  running: { renderId: string; chunk: number | null }[];
}

/** A row of detailQuery, as the database returns it. */
type DetailRow = Awaited<ReturnType<ReturnType<typeof detailQuery>['executeTakeFirstOrThrow']>>;

function detailQuery(db: Db) {
  return db.db
    .selectFrom('workers')
    .select([
      'id',
      'hostname',
      'pid',
      'concurrency',
      'backend',
      'version',
      'renderer_version',
      'started_at',
      'last_seen',
      'stopped_at',
    ])
    .select([
      'memory_rss',
      'memory_heap',
      'jobs_done',
      'jobs_failed',
      'last_error',
      'last_error_at',
      'drain_requested_at',
    ])
    .select(
      sql<boolean>`stopped_at IS NULL AND last_seen >= now() - make_interval(secs => ${DEAD_AFTER_S})`.as('alive'),
    )
    .select(
      sql<number>`extract(epoch FROM (CASE WHEN stopped_at IS NULL AND last_seen >= now() - make_interval(secs => ${DEAD_AFTER_S}) THEN now() ELSE last_seen END) - started_at)::float`.as(
        'uptime_s',
      ),
    )
    .select(sql<number>`extract(epoch FROM now() - last_seen)::float`.as('silent_s'));
}

function toDetail(r: DetailRow, running: WorkerDetail['running']): WorkerDetail {
  const state: WorkerDetail['state'] = r.stopped_at
    ? 'stopped'
    : !r.alive
      ? 'gone'
      : r.drain_requested_at
        ? 'draining'
        : 'running';
  return {
    id: r.id,
    hostname: r.hostname,
    pid: r.pid,
    concurrency: r.concurrency,
    backend: r.backend,
    version: r.version,
    rendererVersion: r.renderer_version,
    state,
    startedAt: new Date(r.started_at),
    lastSeen: new Date(r.last_seen),
    stoppedAt: r.stopped_at ? new Date(r.stopped_at) : null,
    uptimeS: Math.max(0, Math.round(r.uptime_s)),
    silentS: Math.max(0, Math.round(r.silent_s)),
    memory: r.memory_rss === null ? null : { rss: Number(r.memory_rss), heap: Number(r.memory_heap ?? 0) },
    jobsDone: r.jobs_done,
    jobsFailed: r.jobs_failed,
    lastError: r.last_error,
    lastErrorAt: r.last_error_at ? new Date(r.last_error_at) : null,
    drainRequestedAt: r.drain_requested_at ? new Date(r.drain_requested_at) : null,
    running,
  };
}

/** One worker in full, or null when no worker has that id. */
export async function getWorkerDetail(db: Db, id: string): Promise<WorkerDetail | null> {
  const row = await detailQuery(db).where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const [renders, chunks] = await Promise.all([
    db.db
      .selectFrom('renders')
      .select('id')
      .where('status', '=', 'processing')
      .where('worker_id', '=', id)
      .where('chunk_plan', 'is', null)
      .execute(),
    db.db
      .selectFrom('render_chunks as c')
      .innerJoin('renders as r', (j) => j.onRef('r.id', '=', 'c.render_id').onRef('r.chunk_plan', '=', 'c.plan'))
      .select(['c.render_id', 'c.idx'])
      .where('c.status', '=', 'processing')
      .where('c.worker_id', '=', id)
      .execute(),
  ]);
  return toDetail(row, [
    ...renders.map((r) => ({ renderId: r.id, chunk: null })),
    ...chunks.map((c) => ({ renderId: c.render_id, chunk: c.idx })),
  ]);
}

/** Workers live now or stopped within the last hour, newest first (`workers list`). */
export async function listWorkers(db: Db): Promise<WorkerDetail[]> {
  const rows = await detailQuery(db)
    .where((eb) => eb.or([eb('stopped_at', 'is', null), eb('stopped_at', '>=', sql<Date>`now() - interval '1 hour'`)]))
    .where('last_seen', '>=', sql<Date>`now() - interval '1 day'`)
    .orderBy('started_at', 'desc')
    .execute();
  return rows.map((r) => toDetail(r, []));
}

/**
 * Asks a running worker to drain (`workers drain`, the console): its next heartbeat (within
 * HEARTBEAT_MS) reads the mark, and it stops taking jobs, finishes the running ones and exits as
 * on SIGTERM. Asking again keeps the first request's time. Throws DrainRefusedError when the
 * worker is not running (stopped, or silent past the bound); null when there is no such worker.
 */
export async function requestDrain(db: Db, id: string): Promise<{ worker: WorkerDetail; already: boolean } | null> {
  const before = await getWorkerDetail(db, id);
  if (!before) return null;
  if (before.state === 'stopped' || before.state === 'gone') {
    throw new DrainRefusedError(
      `worker ${id} is not running (${before.state}${before.state === 'gone' ? `: silent for ${before.silentS} s` : ''}): nothing to drain`,
    );
  }
  const marked = await db.db
    .updateTable('workers')
    .set({ drain_requested_at: sql<Date>`COALESCE(drain_requested_at, now())` })
    .where('id', '=', id)
    .where('stopped_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!marked) throw new DrainRefusedError(`worker ${id} stopped meanwhile: nothing to drain`);
  return { worker: (await getWorkerDetail(db, id))!, already: before.drainRequestedAt !== null };
}
