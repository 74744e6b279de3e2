/** One job in full for `top`'s detail view: its render's request, state, timings, worker, error, files. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { z } from 'zod';
import { getJob } from '../jobs/jobs-repository.js';

/** What the view shows of a stored request; lenient, so rows written by older versions still show. */
const shownRequest = z.object({
  parts: z.record(z.string(), z.array(z.string())).optional(),
  options: z.record(z.string(), z.unknown()).optional(),
});

export interface JobDetail {
  jobId: string;
  renderId: string;
  cacheKey: string;
  status: string;
  progress: number;
  customers: string[];
  shareCode: string | null;
  parts: Record<string, string[]>;
  options: Record<string, unknown>;
  attempts: number;
  worker: string | null;
  backend: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  renderMs: number | null;
  fps: number | null;
  error: string | null;
  artifacts: Record<string, string>;
}

export async function jobDetail(db: Db, jobId: string): Promise<JobDetail | null> {
  const job = /^[0-9a-f-]{36}$/i.test(jobId) ? await getJob(db, jobId) : null;
  if (!job) return null;
  const r = job.render;
  const customers = await sql<{ name: string }>`
    SELECT DISTINCT c.name FROM jobs j JOIN customers c ON c.id = j.customer_id WHERE j.render_id = ${r.id} ORDER BY c.name`.execute(
    db.db,
  );
  const worker = r.worker_id
    ? await db.db.selectFrom('workers').select(['hostname', 'pid']).where('id', '=', r.worker_id).executeTakeFirst()
    : undefined;
  const request = shownRequest.safeParse(r.request).data ?? {};
  return {
    jobId: job.jobId,
    renderId: r.id,
    cacheKey: r.cache_key,
    status: r.status,
    progress: r.status === 'completed' ? 1 : Number(r.progress),
    customers: customers.rows.map((c) => c.name),
    shareCode: job.shareCode,
    parts: request.parts ?? {},
    options: request.options ?? {},
    attempts: r.attempts,
    worker: worker ? `${worker.hostname}:${worker.pid}` : r.worker_id,
    backend: r.backend,
    createdAt: new Date(job.createdAt),
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    renderMs: r.render_ms,
    fps: r.frames_per_second,
    error: r.error,
    artifacts: (r.artifacts ?? {}) as Record<string, string>,
  };
}
