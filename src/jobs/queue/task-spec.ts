/**
 * A task's queue-side definition: its name and zod payload, declared once. The handler
 * (`defineTask({...spec, run})`) validates with this schema and `addJob` (add-job.ts) enqueues
 * with it, so a payload that a handler would refuse cannot be queued.
 */
import type { z } from 'zod';

export interface TaskSpec<S extends z.ZodType = z.ZodType> {
  name: string;
  payload: S;
}

export function taskSpec<S extends z.ZodType>(name: string, payload: S): TaskSpec<S> {
  return { name, payload };
}
