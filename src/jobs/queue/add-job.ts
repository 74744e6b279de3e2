/**
 * Typed enqueueing, the one way onto the queue: `enqueue(db, name, payload)` takes the payload
 * type of that task (task-map.ts) and parses it with the task's own schema (the one its
 * handler receives) before it reaches the queue; attempts, priority and job key come from the
 * map. Runs on the caller's connection or transaction, so a row and its queue job commit
 * together (or not at all).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { addJobRows, type JobRow } from './graphile-tables.js';
import { TASKS, type PayloadInput, type TaskDeclaration, type TaskName } from './task-map.js';

export interface EnqueueOptions {
  /** graphile runs lower numbers first; default: the task's priority in the map, else 0 */
  priority?: number;
}

function row<N extends TaskName>(name: N, payload: PayloadInput<N>, opts: EnqueueOptions): JobRow {
  const task: TaskDeclaration = TASKS[name];
  const parsed: unknown = task.payload.parse(payload);
  return {
    identifier: name,
    payload: parsed,
    key: task.jobKey?.(parsed) ?? null,
    priority: Math.round(opts.priority ?? task.priority ?? 0),
    max_attempts: task.maxAttempts,
  };
}

/** Adds one job of task `name`. */
export async function enqueue<N extends TaskName>(
  db: Kysely<Database>,
  name: N,
  payload: PayloadInput<N>,
  opts: EnqueueOptions = {},
): Promise<void> {
  await enqueueMany(db, name, [{ payload, ...opts }]);
}

/** Adds many jobs of one task in one statement; returns how many were added. */
export async function enqueueMany<N extends TaskName>(
  db: Kysely<Database>,
  name: N,
  jobs: readonly ({ payload: PayloadInput<N> } & EnqueueOptions)[],
): Promise<number> {
  if (!jobs.length) return 0;
  return addJobRows(
    db,
    jobs.map((j) => row(name, j.payload, j)),
  );
}
