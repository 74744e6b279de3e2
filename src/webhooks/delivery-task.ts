/**
 * The `webhook` task: POSTs one delivery (queued by a trigger when a render ends; see
 * sql/0007_webhooks.sql) and logs the attempt. A failure throws, so graphile-worker retries
 * with exponential backoff (exp(attempt) seconds) up to WEBHOOK_MAX_ATTEMPTS (jobs/queue/task-map.ts); a refused
 * target (SSRF) or a removed webhook fails at once. Runs in its own runner, never in a render
 * slot, so a slow receiver cannot hold up renders.
 */
import type { Db } from '../db/database.js';
import type { Logger } from '../log.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { postWebhook } from './post-webhook.js';
import type { TargetPolicy } from './target-policy.js';
import type { Handler } from '../jobs/queue/task-map.js';
import { loadDelivery, recordAttempt } from './webhooks-repository.js';
import { getJob } from '../jobs/jobs-repository.js';
import { jobView } from '../jobs/job-view.js';

export interface WebhookTaskContext {
  db: Db;
  store: ArtifactStore;
  log: Logger;
  policy: TargetPolicy;
  timeoutMs: number;
  /** public base of artifact URLs in the job object */
  baseUrl: string;
}

/** The body a receiver gets. */
export interface WebhookBody {
  event: 'job.completed' | 'job.error';
  delivery_id: string;
  created_at: string;
  job: unknown;
}

export function webhookTask(ctx: WebhookTaskContext): Handler<'webhook'> {
  return async ({ deliveryId }, helpers) => {
    const d = await loadDelivery(ctx.db, deliveryId);
    if (!d || d.status !== 'pending') return;
    const dlog = ctx.log.child({ deliveryId, jobId: d.job_id, attempt: helpers.job.attempts });
    if (d.disabled_at) {
      await recordAttempt(ctx.db, deliveryId, { status: 'failed', error: 'the webhook was removed before delivery' });
      return;
    }
    const job = await getJob(ctx.db, d.job_id);
    if (!job) {
      await recordAttempt(ctx.db, deliveryId, { status: 'failed', error: 'the job no longer exists' });
      return;
    }
    const view = await jobView(job.jobId, job.render, (key) => ctx.store.url(key, ctx.baseUrl), {
      shareCode: job.shareCode,
      createdAt: job.createdAt,
    });
    const body: WebhookBody = {
      event: d.event,
      delivery_id: d.id,
      created_at: new Date(d.created_at).toISOString(),
      job: view,
    };
    const outcome = await postWebhook({
      url: d.url,
      secret: d.secret,
      event: d.event,
      deliveryId: d.id,
      body: JSON.stringify(body),
      timeoutMs: ctx.timeoutMs,
      policy: ctx.policy,
    });
    if (outcome.ok) {
      await recordAttempt(ctx.db, deliveryId, { status: 'delivered', responseStatus: outcome.status });
      dlog.info({ status: outcome.status }, 'webhook delivered');
      return;
    }
    const last = outcome.permanent || helpers.job.attempts >= helpers.job.max_attempts;
    await recordAttempt(ctx.db, deliveryId, {
      status: last ? 'failed' : 'pending',
      responseStatus: outcome.status,
      error: outcome.error,
    });
    if (last) {
      dlog.warn({ err: outcome.error }, 'webhook delivery failed for good');
      return;
    }
    dlog.info({ err: outcome.error }, 'webhook delivery failed, will retry');
    throw new Error(`webhook delivery failed: ${outcome.error}`);
  };
}
