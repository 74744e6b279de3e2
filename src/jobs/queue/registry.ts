/**
 * Typed task registry: task name -> zod payload + handler, one file per task. Payloads are
 * validated before the handler runs, so a malformed job fails clearly instead of half-running.
 */
import type { JobHelpers, TaskList } from 'graphile-worker';
import type { z } from 'zod';

export interface TaskDefinition<S extends z.ZodType> {
  name: string;
  payload: S;
  run(payload: z.output<S>, helpers: JobHelpers): Promise<void>;
}

export function defineTask<S extends z.ZodType>(def: TaskDefinition<S>): TaskDefinition<S> {
  return def;
}

export function toTaskList(defs: TaskDefinition<z.ZodType>[]): TaskList {
  const list: TaskList = {};
  for (const def of defs) {
    list[def.name] = async (raw, helpers) => {
      const parsed = def.payload.safeParse(raw);
      if (!parsed.success) {
        // nothing to retry: log and complete the queue job
        helpers.logger.error(`task ${def.name}: invalid payload ${JSON.stringify(raw)}: ${parsed.error.message}`);
        return;
      }
      await def.run(parsed.data, helpers);
    };
  }
  return list;
}
