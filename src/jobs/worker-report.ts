/**
 * What a worker process reports in its heartbeats besides being alive (workers-repository.ts
 * recordHeartbeat; shown by `workers show` and the console's worker page): its memory, how many
 * queue jobs it finished and how many failed, and its last error. Counted around the task
 * handlers, so the tasks stay as they are. A failed attempt that will be retried throws; a final
 * failure (bad data, or the last attempt) returns normally and is recorded on its render or
 * chunk row instead, so after a render or chunk job returns the row is read once to tell the two
 * apart (one small read per render, beside seconds of rendering). A cancelled render is no failure.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { TaskHandlers, TaskName } from './queue/task-map.js';
import { CANCELLED_MESSAGE } from './render-lifecycle.js';
import type { HeartbeatReport } from './workers-repository.js';

/** Longest last error kept (a stack of ffmpeg output is not a heartbeat's business). */
const MAX_ERROR = 500;
const CANCELLED_PREFIX = CANCELLED_MESSAGE.slice(0, CANCELLED_MESSAGE.indexOf(':') + 1);

export class WorkerReport {
  private done = 0;
  private failed = 0;
  private lastError: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly workerId: string,
  ) {}

  /** The heartbeat's report now. */
  snapshot(): HeartbeatReport {
    const m = process.memoryUsage();
    return {
      memoryRss: m.rss,
      memoryHeap: m.heapUsed,
      jobsDone: this.done,
      jobsFailed: this.failed,
      lastError: this.lastError,
    };
  }

  private fail(task: string, message: string): void {
    this.failed++;
    this.lastError = `${task}: ${message}`.slice(0, MAX_ERROR);
  }

  /** The same handlers, counted. */
  wrap(handlers: TaskHandlers): TaskHandlers {
    const out: Record<string, unknown> = {};
    for (const [name, handler] of Object.entries(handlers) as [TaskName, (p: unknown, h: unknown) => Promise<void>][]) {
      out[name] = async (payload: unknown, helpers: unknown) => {
        try {
          await handler(payload, helpers);
        } catch (err) {
          this.fail(name, (err as Error).message);
          throw err;
        }
        const final = await this.finalFailure(name, payload).catch(() => null);
        if (final) this.fail(name, final);
        else this.done++;
      };
    }
    return out as TaskHandlers;
  }

  /** The reason a render or chunk job this worker ran ended in failure, or null. */
  private async finalFailure(task: TaskName, payload: unknown): Promise<string | null> {
    const p = payload as { renderId?: string; plan?: string; idx?: number };
    if (task === 'render' && p.renderId) {
      const { rows } = await sql<{ error: string | null }>`
        SELECT error FROM renders WHERE id = ${p.renderId} AND status = 'error' AND worker_id = ${this.workerId}
           AND COALESCE(error, '') NOT LIKE ${CANCELLED_PREFIX + '%'}`.execute(this.db.db);
      return rows[0] ? (rows[0].error ?? 'the render failed') : null;
    }
    if (task === 'render-chunk' && p.renderId && p.plan && p.idx !== undefined) {
      const { rows } = await sql<{ error: string | null }>`
        SELECT c.error FROM render_chunks c JOIN renders r ON r.id = c.render_id
         WHERE c.render_id = ${p.renderId} AND c.plan = ${p.plan} AND c.idx = ${p.idx} AND c.status = 'error' AND c.worker_id = ${this.workerId}
           AND COALESCE(r.error, '') NOT LIKE ${CANCELLED_PREFIX + '%'}`.execute(this.db.db);
      return rows[0] ? (rows[0].error ?? 'the chunk failed') : null;
    }
    return null;
  }
}
