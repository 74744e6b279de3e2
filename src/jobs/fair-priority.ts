/**
 * Fair scheduling between customers, with graphile-worker's own `priority` (lower runs first):
 * a render's priority is set at enqueue from its estimated cost plus its customer's in-flight
 * load (estimated seconds of that customer's queued and processing renders). A customer with a
 * large backlog or huge jobs sinks; another customer's small job, submitted later, overtakes it.
 * Equal load: the cheaper job first; equal priority: first come, first served (graphile's
 * run_at, id order). Buckets are log2 of seconds, so doubling the work costs one step.
 * Priorities are fixed at enqueue (graphile has no ageing); a sunk job still runs whenever no
 * lighter one waits. Thumbnails (THUMBNAIL_PRIORITY) sit below every render.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** the lowest render priority (highest number); thumbnails are queued below it */
export const MAX_RENDER_PRIORITY = 90;

/** Pure: the queue priority of a job costing `costS` from a customer with `loadS` already in flight. */
export function priorityFor(loadS: number, costS: number): number {
  const work = Math.max(0, loadS) + Math.max(0, costS);
  return Math.min(MAX_RENDER_PRIORITY, Math.floor(Math.log2(1 + work)));
}

/**
 * Estimated seconds of a customer's renders that are queued or processing (shared renders
 * count for each customer waiting on them; rows from before the estimate existed count 0).
 */
export async function customerInFlightCost(db: Kysely<Database>, customerId: string, exceptRenderId?: string): Promise<number> {
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
export async function renderPriority(db: Kysely<Database>, customerId: string, costS: number, exceptRenderId?: string): Promise<number> {
  return priorityFor(await customerInFlightCost(db, customerId, exceptRenderId), costS);
}
