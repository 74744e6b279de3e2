/**
 * Fair scheduling between customers, with graphile-worker's own `priority` (lower runs first):
 * a render's priority is set at enqueue from its estimated cost plus its customer's in-flight
 * load (estimated seconds of that customer's queued and processing renders). A customer with a
 * large backlog or huge jobs sinks; another customer's small job, submitted later, overtakes it.
 * Equal load: the cheaper job first; equal priority: first come, first served (graphile's
 * run_at, id order). Buckets are log2 of seconds, so doubling the work costs one step.
 * A split render's chunks are queued at its render job's priority, so chunks of a light job
 * interleave ahead of a heavy job's remaining chunks. Waiting raises a job: the sweeper
 * (ageWaitingJobs) lowers the number of a render or chunk job by one for every AGE_STEP_S it
 * has waited untouched, so a sunk job is not starved by a steady stream of lighter ones.
 * Thumbnails (THUMBNAIL_PRIORITY) sit below every render and do not age.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { raiseWaitingJobs } from './queue/graphile-tables.js';
import { THUMBNAIL_PRIORITY, type TaskName } from './queue/task-map.js';

/** the lowest render priority (highest number); thumbnails are queued below it */
export const MAX_RENDER_PRIORITY = 90;
/** a waiting render or chunk job rises one priority step per this many seconds */
export const AGE_STEP_S = 60;
// a render must always outrank a thumbnail
if (THUMBNAIL_PRIORITY <= MAX_RENDER_PRIORITY)
  throw new Error('THUMBNAIL_PRIORITY must be above every render priority');
/** the tasks whose jobs age (assemble runs at 0 already; thumbnails stay below renders) */
export const AGEING_TASKS: readonly TaskName[] = ['render', 'render-chunk'];

/** Pure: the queue priority of a job costing `costS` from a customer with `loadS` already in flight. */
export function priorityFor(loadS: number, costS: number): number {
  const work = Math.max(0, loadS) + Math.max(0, costS);
  return Math.min(MAX_RENDER_PRIORITY, Math.floor(Math.log2(1 + work)));
}

/**
 * Estimated seconds of a customer's renders that are queued or processing (shared renders
 * count for each customer waiting on them; rows from before the estimate existed count 0).
 */
export async function customerInFlightCost(
  db: Kysely<Database>,
  customerId: string,
  exceptRenderId?: string,
): Promise<number> {
  const r = await db
    .selectFrom('jobs as j')
    .innerJoin('renders as r', 'r.id', 'j.render_id')
    .select(sql<string>`COALESCE(sum(r.estimated_cost_s), 0)`.as('s'))
    .where('j.customer_id', '=', customerId)
    .where('r.status', 'in', ['queued', 'processing'])
    .$if(exceptRenderId !== undefined, (q) => q.where('r.id', '<>', exceptRenderId!))
    .executeTakeFirst();
  return Number(r?.s ?? 0);
}

/** The priority to enqueue a render of `costS` for a customer now. */
export async function renderPriority(
  db: Kysely<Database>,
  customerId: string,
  costS: number,
  exceptRenderId?: string,
): Promise<number> {
  return priorityFor(await customerInFlightCost(db, customerId, exceptRenderId), costS);
}

/**
 * One ageing step: every unlocked render or chunk job untouched for AGE_STEP_S rises by one
 * (graphile's own reschedule_jobs, which also stamps updated_at, so a job rises once per step
 * however many sweepers run). Returns how many rose.
 */
export async function ageWaitingJobs(db: Kysely<Database>, stepS = AGE_STEP_S): Promise<number> {
  return raiseWaitingJobs(db, AGEING_TASKS, stepS);
}
