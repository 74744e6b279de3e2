/**
 * Follows one job until its render ends: the events behind SSE (`GET /render-build/:jobId/events`)
 * and `render-farm jobs watch`. Events: `status` ({job_id, status, progress}), `progress`
 * ({job_id, status, progress}; at most one per `progressIntervalMs`), then `completed` or
 * `error` (the job object). Event ids are render_events ids, so a client that reconnects with
 * the last id it saw gets what it missed (progress collapsed to the newest value).
 */
import type { Db } from '../db/database.js';
import { getJob, type JobRecord } from '../jobs/jobs-repository.js';
import type { RenderEventHub } from './render-event-hub.js';
import { renderEventsSince, renderEventState } from './render-events-repository.js';
import { isFinal } from '../model/job-status.js';

export type JobEventName = 'status' | 'progress' | 'completed' | 'error';

export interface JobEvent {
  id: number;
  event: JobEventName;
  data: unknown;
}

export interface FollowOptions {
  /** resume after this event id (SSE Last-Event-ID); undefined starts with a `status` snapshot */
  lastEventId?: number;
  /** at most one progress event per this many ms (default 500: 2/s) */
  progressIntervalMs?: number;
  signal?: AbortSignal;
  emit(e: JobEvent): void;
  /** the job object sent with `completed` and `error` */
  view(job: JobRecord): Promise<unknown>;
}

/** final: completed/error was sent; aborted: the signal fired; closed: the hub closed; gone: the job was deleted. */
export type FollowEnd = 'final' | 'aborted' | 'closed' | 'gone';

export async function followJob(db: Db, hub: RenderEventHub, job: JobRecord, opts: FollowOptions): Promise<FollowEnd> {
  const renderId = job.render.id;
  const interval = opts.progressIntervalMs ?? 500;
  let dirty = true;
  let closed = false;
  let wake: (() => void) | null = null;
  const unsubscribe = hub.subscribe(renderId, (m) => {
    if (m.kind === 'closed') closed = true;
    dirty = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  opts.signal?.addEventListener('abort', onAbort);
  const small = (status: string, progress: number) => ({
    job_id: job.jobId,
    status,
    progress: status === 'completed' ? 1 : progress,
  });

  const sendFinal = async (id: number): Promise<FollowEnd> => {
    const fresh = await getJob(db, job.jobId);
    if (!fresh) return 'gone';
    opts.emit({ id, event: fresh.render.status === 'completed' ? 'completed' : 'error', data: await opts.view(fresh) });
    return 'final';
  };

  try {
    // LISTEN first, then read: a change committed in between is both read and announced
    await hub.listening();
    let lastId: number;
    if (opts.lastEventId === undefined) {
      const s = await renderEventState(db, renderId);
      if (!s) return 'gone';
      if (isFinal(s.status)) return await sendFinal(s.lastEventId);
      opts.emit({ id: s.lastEventId, event: 'status', data: small(s.status, s.progress) });
      lastId = s.lastEventId;
      dirty = false;
    } else {
      lastId = opts.lastEventId;
    }
    let held: { id: number; status: string; progress: number } | null = null;
    let lastProgressAt = 0;
    for (;;) {
      if (opts.signal?.aborted) return 'aborted';
      if (closed) return 'closed';
      if (dirty) {
        dirty = false;
        const rows = await renderEventsSince(db, renderId, lastId);
        const state = await renderEventState(db, renderId);
        if (!state) return 'gone';
        const lastStatusRow = rows.findLast((r) => r.kind === 'status');
        for (const row of rows) {
          lastId = row.id;
          if (row.kind === 'progress') {
            held = row;
            continue;
          }
          held = null;
          // only the newest status can end the stream, and only if the render is still in it
          if (row === lastStatusRow && isFinal(row.status) && state.status === row.status)
            return await sendFinal(row.id);
          opts.emit({ id: row.id, event: 'status', data: small(row.status, row.progress) });
        }
        // resumed after the final event's id was already seen elsewhere, or rows were pruned
        if (isFinal(state.status) && !rows.length) return await sendFinal(Math.max(lastId, state.lastEventId));
      }
      const now = Date.now();
      if (held && now - lastProgressAt >= interval) {
        opts.emit({ id: held.id, event: 'progress', data: small(held.status, held.progress) });
        lastProgressAt = now;
        held = null;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (dirty || closed || opts.signal?.aborted) resolve();
        else if (held) setTimeout(resolve, Math.max(1, interval - (now - lastProgressAt)));
      });
      wake = null;
    }
  } finally {
    unsubscribe();
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
