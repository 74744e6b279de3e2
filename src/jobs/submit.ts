/**
 * Render submission: normalise, compute the cache key, and either share an existing render
 * (completed: cache hit; queued/processing: reuse) or create and enqueue a new one. The
 * unique cache key in `renders` makes concurrent identical submissions render once.
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { Environment } from '../auth/scopes.js';
import { resolveBuildParts, UnknownPartsError } from '../catalog/repository.js';
import type { InteractiveState } from '../model/interactive-state.js';
import { resolveRenderOptions, type RenderOptions } from '../model/render-options.js';
import { rendererVersion } from '../render/renderer-version.js';
import { cacheKey } from './cache-key.js';
import { normaliseRequest } from '../model/render-request.js';
import { enqueueRender } from './queue.js';
import type { RenderRow } from './render-row.js';

export interface SubmitInput {
  customerId: string;
  /** the submitting credential's environment (default prod): the job is readable only there */
  environment?: Environment;
  parts: Record<string, string[]>;
  state: InteractiveState | null;
  options: RenderOptions;
  shareCode?: string;
}

export type SubmitOutcome = 'new' | 'reused' | 'cached';

export interface Submission {
  jobId: string;
  outcome: SubmitOutcome;
  render: RenderRow;
}

export async function submitRender(db: Db, input: SubmitInput): Promise<Submission> {
  const options = resolveRenderOptions(input.options);
  const resolved = await resolveBuildParts(db, input.parts);
  if (resolved.missing.length) throw new UnknownPartsError(resolved.missing);
  const request = normaliseRequest(input.parts, input.state, options);
  const key = cacheKey(request, resolved.versions, await rendererVersion());

  // fast path (cache hits, reuse): one statement finds a live render and upserts the job
  const hit = await sql<RenderRow & { job_id: string }>`
    WITH r AS (SELECT * FROM renders WHERE cache_key = ${key} AND status <> 'error'),
    j AS (
      INSERT INTO jobs (customer_id, environment, render_id, share_code)
      SELECT ${input.customerId}, ${input.environment ?? 'prod'}, r.id, ${input.shareCode ?? null} FROM r
      ON CONFLICT (customer_id, environment, render_id) DO UPDATE SET share_code = COALESCE(jobs.share_code, EXCLUDED.share_code)
      RETURNING id
    )
    SELECT r.*, j.id AS job_id FROM r, j`.execute(db.db);
  const found = hit.rows[0];
  if (found) {
    const { job_id: jobId, ...render } = found;
    return { jobId, outcome: render.status === 'completed' ? 'cached' : 'reused', render: render as RenderRow };
  }

  return db.db.transaction().execute(async (trx) => {
    let outcome: SubmitOutcome = 'new';
    let render = (await trx
      .insertInto('renders')
      .values({ cache_key: key, format: options.format, request: JSON.stringify(request) })
      .onConflict((oc) => oc.column('cache_key').doNothing())
      .returningAll()
      .executeTakeFirst()) as RenderRow | undefined;
    if (render) {
      await enqueueRender(trx, render.id);
    } else {
      // a failed render is tried again when someone asks for it again
      render = (await trx
        .updateTable('renders')
        .set({ status: 'queued', error: null, progress: 0, attempts: 0, artifacts: null, updated_at: new Date() })
        .where('cache_key', '=', key)
        .where('status', '=', 'error')
        .returningAll()
        .executeTakeFirst()) as RenderRow | undefined;
      if (render) {
        await enqueueRender(trx, render.id);
      } else {
        render = (await trx.selectFrom('renders').selectAll().where('cache_key', '=', key).executeTakeFirstOrThrow()) as RenderRow;
        outcome = render.status === 'completed' ? 'cached' : 'reused';
      }
    }
    return { jobId: await upsertJob(trx, input, render.id), outcome, render };
  });
}

/** One job per customer, environment and render: re-submitting returns the same job id. */
async function upsertJob(db: Kysely<Database>, input: SubmitInput, renderId: string): Promise<string> {
  const job = await db
    .insertInto('jobs')
    .values({ customer_id: input.customerId, environment: input.environment ?? 'prod', render_id: renderId, share_code: input.shareCode ?? null })
    .onConflict((oc) => oc.columns(['customer_id', 'environment', 'render_id']).doUpdateSet((eb) => ({ share_code: eb.fn.coalesce('jobs.share_code', 'excluded.share_code') })))
    .returning('id')
    .executeTakeFirstOrThrow();
  return job.id;
}
