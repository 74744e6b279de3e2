/**
 * Typed enqueueing: the one place that calls graphile-worker's `add_job`. Payloads are parsed
 * by the task's own schema (the one its handler validates with) before they reach the queue.
 * Runs on the caller's connection or transaction, so a row and its queue job commit together.
 */
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/schema.js';
import type { TaskSpec } from './task-spec.js';

export interface JobOptions {
  /** a keyed job is updated instead of doubled when added again */
  jobKey?: string;
  /** graphile runs lower numbers first */
  priority?: number;
  maxAttempts?: number;
}

interface JobRow {
  identifier: string;
  payload: unknown;
  key: string | null;
  priority: number;
  max_attempts: number | null;
}

function row<S extends z.ZodType>(spec: TaskSpec<S>, payload: z.input<S>, opts: JobOptions): JobRow {
  return {
    identifier: spec.name,
    payload: spec.payload.parse(payload),
    key: opts.jobKey ?? null,
    priority: Math.round(opts.priority ?? 0),
    max_attempts: opts.maxAttempts ?? null,
  };
}

/** Adds one job of `spec`'s task. */
export async function addJob<S extends z.ZodType>(db: Kysely<Database>, spec: TaskSpec<S>, payload: z.input<S>, opts: JobOptions = {}): Promise<void> {
  await addJobs(db, spec, [{ payload, ...opts }]);
}

/** Adds many jobs of one task in one statement; returns how many were added. */
export async function addJobs<S extends z.ZodType>(
  db: Kysely<Database>,
  spec: TaskSpec<S>,
  jobs: readonly ({ payload: z.input<S> } & JobOptions)[],
): Promise<number> {
  if (!jobs.length) return 0;
  const rows = jobs.map((j) => row(spec, j.payload, j));
  const r = await sql<{ n: string }>`
    WITH added AS (
      SELECT graphile_worker.add_job(t.identifier, t.payload, job_key := t.key, priority := t.priority,
        max_attempts := COALESCE(t.max_attempts, 25))
      FROM json_to_recordset(${JSON.stringify(rows)}::json)
        AS t(identifier text, payload json, key text, priority int, max_attempts int)
    )
    SELECT count(*) AS n FROM added`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}
