/**
 * The task map, in graphile-worker's style: every queue task's name, payload schema and
 * enqueue options (attempts, priority, job key), declared once. `enqueue(db, name, payload)`
 * (add-job.ts) type-checks the payload for that name and parses it with this schema; a
 * handler (`Handler<name>`) receives the payload this schema parsed; `toTaskList` turns
 * handlers into graphile's task list.
 *
 * Why names and schemas here but handlers elsewhere: the map sits at the bottom of `jobs/`
 * (floor 7), where `enqueue` is needed (submission, the render lifecycle, webhooks'
 * redelivery), but one handler lives higher: webhook delivery is in `webhooks/` (floor 8) and
 * `jobs/` may not import it. So the map holds every task's name and payload (the webhook
 * payload is one uuid and needs nothing from `webhooks/`), and each runner registers the
 * handlers it runs from where it stands: `jobs/worker.ts` the render and thumbnail tasks
 * (jobs/tasks/), `webhooks/delivery-runner.ts` the webhook task. A handler for a name not in
 * the map, or with the wrong payload type, does not type-check.
 */
import type { JobHelpers, TaskList } from 'graphile-worker';
import { z } from 'zod';

/** attempts before a render, chunk or assembly is marked failed (transient failures retry with backoff) */
export const MAX_ATTEMPTS = 3;
/**
 * Assembling is a short ffmpeg copy / sharp encode that frees a finished result: it goes
 * before any render work waiting.
 */
export const ASSEMBLE_PRIORITY = 0;
/**
 * Parts per thumbnail job. The per-part cost is flat within a batch (~50-90 ms here) and the
 * per-job cost is a claim, one SELECT and one stage session, so the size mostly bounds how long
 * a batch holds a worker: 100 parts take ~6-10 s on 2 cores, and a render queued meanwhile
 * waits at most that.
 */
export const THUMBNAIL_BATCH_SIZE = 100;
/** Queue priority: graphile runs lower numbers first; every render is at most MAX_RENDER_PRIORITY (fair-priority.ts), so thumbnails wait for them. */
export const THUMBNAIL_PRIORITY = 100;
export const THUMBNAIL_MAX_ATTEMPTS = 3;
/** delivery attempts (graphile-worker backs off exp(attempt) seconds: about 3 hours in all); sql/0007_webhooks.sql's trigger queues with the same */
export const WEBHOOK_MAX_ATTEMPTS = 10;

export interface TaskDeclaration<S extends z.ZodType = z.ZodType> {
  payload: S;
  maxAttempts: number;
  /** graphile runs lower numbers first; enqueue's `priority` overrides it */
  priority?: number;
  /** a keyed job is updated instead of doubled when added again */
  jobKey?(payload: z.output<S>): string;
}

const declare = <S extends z.ZodType>(d: TaskDeclaration<S>) => d;
const uuid = z.string().uuid();
const partId = z.string().min(1).max(64);

/** The queue job of a render is keyed by it, so re-adding one updates it instead of doubling it. */
export function renderJobKey(renderId: string): string {
  return `render:${renderId}`;
}

export const TASKS = {
  /** a whole render, or its split into chunks (tasks/render.ts); priority from fair-priority.ts */
  render: declare({
    payload: z.object({ renderId: uuid }),
    maxAttempts: MAX_ATTEMPTS,
    jobKey: (p) => renderJobKey(p.renderId),
  }),
  /** a chunk of a split render: frames of one plan's range `idx` (tasks/render-chunk.ts), at its render job's priority */
  'render-chunk': declare({
    payload: z.object({ renderId: uuid, plan: uuid, idx: z.number().int().min(0) }),
    maxAttempts: MAX_ATTEMPTS,
    jobKey: (p) => `chunk:${p.plan}:${p.idx}`,
  }),
  /** joins a split render's chunks into its files (tasks/render-assemble.ts) */
  'render-assemble': declare({
    payload: z.object({ renderId: uuid, plan: uuid }),
    maxAttempts: MAX_ATTEMPTS,
    priority: ASSEMBLE_PRIORITY,
    jobKey: (p) => `assemble:${p.plan}`,
  }),
  /**
   * part thumbnails (tasks/thumbnail.ts; queue side: thumbnail-jobs.ts): a batch of part ids
   * (`isolated`: parts that failed in a batch, retried by graphile as one job), or the single
   * `partId` of a job queued before thumbnails were batched
   */
  thumbnail: declare({
    payload: z.union([
      z.object({ partIds: z.array(partId).min(1).max(THUMBNAIL_BATCH_SIZE), isolated: z.boolean().optional() }),
      z.object({ partId }),
    ]),
    maxAttempts: THUMBNAIL_MAX_ATTEMPTS,
    priority: THUMBNAIL_PRIORITY,
  }),
  /** one webhook delivery (webhooks/delivery-task.ts, run by webhooks/delivery-runner.ts); also queued by a trigger (sql/0007_webhooks.sql) */
  webhook: declare({ payload: z.object({ deliveryId: uuid }), maxAttempts: WEBHOOK_MAX_ATTEMPTS }),
  /** one storage retention pass (tasks/retention.ts), queued by the render workers' crontab (src/jobs/retention.ts); a failed pass waits for the next tick */
  retention: declare({ payload: z.object({}), maxAttempts: 1 }),
};

export type TaskName = keyof typeof TASKS;
/** what enqueue accepts for a task */
export type PayloadInput<N extends TaskName> = z.input<(typeof TASKS)[N]['payload']>;
/** what a task's handler receives (parsed by its schema) */
export type Payload<N extends TaskName> = z.output<(typeof TASKS)[N]['payload']>;
export type Handler<N extends TaskName> = (payload: Payload<N>, helpers: JobHelpers) => Promise<void>;
/** the handlers one runner runs */
export type TaskHandlers = { [N in TaskName]?: Handler<N> };

/**
 * graphile's task list for `handlers`. Payloads are validated before the handler runs, so a
 * malformed job fails clearly instead of half-running.
 */
export function toTaskList(handlers: TaskHandlers): TaskList {
  const list: TaskList = {};
  for (const name of Object.keys(handlers) as TaskName[]) {
    const schema: z.ZodType = TASKS[name].payload;
    // the map types each handler by its own name; graphile's list is untyped
    const run = handlers[name] as (payload: unknown, helpers: JobHelpers) => Promise<void>;
    list[name] = async (raw, helpers) => {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        // nothing to retry: log and complete the queue job
        helpers.logger.error(`task ${name}: invalid payload ${JSON.stringify(raw)}: ${parsed.error.message}`);
        return;
      }
      await run(parsed.data, helpers);
    };
  }
  return list;
}
