/** Queue depth by kind, for /health and metrics. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { thumbnailPartCounts } from './graphile-tables.js';

/** Counts of one kind of queued work. */
export interface KindCounts {
  queued: number;
  processing: number;
  /** queue jobs that used up their attempts (graphile-worker keeps them; thumbnails only, counted in parts) */
  failed?: number;
}

/** Queue depth for /health and metrics: renders (top level, as before) and every kind of job. */
export interface QueueCounts {
  queued: number;
  processing: number;
  by_kind: { render: KindCounts; thumbnail: KindCounts };
  /** frame-range chunks of split renders (those renders count once under render.processing) */
  chunks: KindCounts;
}

/** Counts for /health and metrics: renders from their rows, thumbnails from graphile-worker's jobs. */
export async function queueCounts(db: Kysely<Database>): Promise<QueueCounts> {
  const rows = await db
    .selectFrom('renders')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('status', 'in', ['queued', 'processing'])
    .groupBy('status')
    .execute();
  const get = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  const render = { queued: get('queued'), processing: get('processing') };
  return { ...render, by_kind: { render, thumbnail: await thumbnailPartCounts(db) }, chunks: await chunkCounts(db) };
}

/** Chunks of the current plans of processing renders, by state. */
async function chunkCounts(db: Kysely<Database>): Promise<KindCounts> {
  const rows = await db
    .selectFrom('render_chunks as c')
    .innerJoin('renders as r', (j) => j.onRef('r.id', '=', 'c.render_id').onRef('r.chunk_plan', '=', 'c.plan'))
    .select(['c.status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('r.status', '=', 'processing')
    .where('c.status', 'in', ['queued', 'processing'])
    .groupBy('c.status')
    .execute();
  const get = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { queued: get('queued'), processing: get('processing') };
}
