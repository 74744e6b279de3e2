/** The jobs page (a filtered, paged list; retry every failed job) and one job's page (chunks, retry, cancel). */
import { Router } from 'express';
import { z } from 'zod';
import { MAX_SEARCH_LENGTH } from '../../jobs/job-search.js';
import { cancelJob, jobChunks, listJobs, retryJob } from '../../jobs/jobs-repository.js';
import { failedRenders, retryFailed } from '../../jobs/retry-failed.js';
import { JOB_STATUSES } from '../../model/job-status.js';
import { isUuid } from '../../model/uuid.js';
import type { ApiContext } from '../../http/context.js';
import { notFound } from '../../http/http-error.js';
import { queryChoice, queryInt, queryText } from '../../http/query-fields.js';
import { parseOr400 } from '../../http/validate.js';
import type * as Api from '../console-api.js';
import { sessionOf } from '../console-security.js';
import { iso } from '../iso-time.js';
import { findJob, fullJob, owner, summary } from '../job-views.js';

/** The jobs page's filters and its cursor (`before`: the `next` of the page before). */
const jobsQuery = z.object({
  before: queryText('before').refine(
    (v) => v === undefined || isUuid(v),
    'before must be the `next` of the previous page',
  ),
  limit: queryInt('limit', 1, 200).default(50),
  q: queryText('q').refine(
    (v) => v === undefined || v.length <= MAX_SEARCH_LENGTH,
    `q (a job id prefix or a share code) must be at most ${MAX_SEARCH_LENGTH} characters`,
  ),
  status: queryChoice('status', JOB_STATUSES),
  format: queryChoice('format', ['video', 'sprite']),
  kind: queryChoice('kind', ['render', 'pregen']),
  environment: queryChoice('environment', ['prod', 'staging']),
  customer: queryText('customer'),
});

export function jobRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/console/api/jobs', async (req, res) => {
    const s = sessionOf(req);
    const {
      before,
      limit,
      q: search,
      status,
      format,
      kind,
      environment,
      customer,
    } = parseOr400(jobsQuery, req.query, 'query');
    const o = owner(s);
    // a customer's session lists its own environment's jobs, whatever the filter says
    const list = await listJobs(ctx.db, {
      search,
      status,
      format,
      kind,
      environment: o?.environment ?? environment,
      ...(o ? { customerId: o.customerId } : { customer }),
      before,
      limit: limit + 1,
    });
    const page = list.slice(0, limit);
    const body: Api.JobsPage = {
      jobs: page.map((j) => summary(j, j.customer)),
      next: list.length > limit ? page[page.length - 1]!.jobId : null,
    };
    res.json(body);
  });

  // before /jobs/:id: `retry-failed` is not a job id
  r.get('/console/api/jobs/retry-failed', async (req, res) => {
    const { total } = await failedRenders(ctx.db, owner(sessionOf(req)) ?? {}, 0);
    const body: Api.FailedCount = total;
    res.json(body);
  });

  r.post('/console/api/jobs/retry-failed', async (req, res) => {
    // the code `render-farm jobs retry --failed` runs: each failed render retried as a single retry is
    const s = sessionOf(req);
    const r = await retryFailed(ctx.db, owner(s) ?? {});
    ctx.log.info(
      { retried: r.retried.length, refused: r.refused.length, remaining: r.remaining, customer: s.customerName },
      'console: retried failed jobs',
    );
    const body: Api.RetryFailedResult = {
      retried: r.retried.map((f) => f.jobId),
      jobs: r.retried.reduce((n, f) => n + f.jobs, 0),
      refused: r.refused.map((f) => ({ id: f.jobId, reason: f.reason })),
      remaining: r.remaining,
    };
    res.json(body);
  });

  r.get('/console/api/jobs/:id', async (req, res) => {
    const job = await findJob(ctx, sessionOf(req), String(req.params.id));
    const chunks = job.render.chunk_total ? await jobChunks(ctx.db, job.render.id) : [];
    const body: Api.JobDetailView = {
      job: await fullJob(ctx, req, job),
      chunks: chunks.map((c) => ({
        idx: c.chunk,
        start: c.start,
        end: c.end,
        status: c.status,
        worker: c.worker,
        startedAt: iso(c.started_at),
        finishedAt: iso(c.finished_at),
        framesDone: c.frames_done,
        attempts: c.attempts,
        error: c.error,
      })),
    };
    res.json(body);
  });

  r.post('/console/api/jobs/:id/retry', async (req, res) => {
    const job = await findJob(ctx, sessionOf(req), String(req.params.id));
    // the code `render-farm jobs retry` runs (RetryRefusedError: 409 saying why)
    const retried = await retryJob(ctx.db, job.jobId);
    if (!retried) throw notFound('job_not_found', `no job ${job.jobId}`);
    res.json({ job: await fullJob(ctx, req, retried) });
  });

  r.post('/console/api/jobs/:id/cancel', async (req, res) => {
    const s = sessionOf(req);
    const job = await findJob(ctx, s, String(req.params.id));
    // the code `render-farm jobs cancel` runs; a customer's key may not cancel a render another customer shares
    const cancelled = await cancelJob(ctx.db, job.jobId, owner(s));
    if (!cancelled) throw notFound('job_not_found', `no job ${job.jobId}`);
    res.json({ job: await fullJob(ctx, req, cancelled) });
  });
  return r;
}
