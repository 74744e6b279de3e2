/**
 * Webhook registration for integrators' servers (API keys only: a browser's session token
 * must not be able to point a customer's events elsewhere). POST /webhooks returns the
 * signing secret once; GET lists; DELETE disables; GET /webhooks/:id/deliveries is the log.
 */
import { Router } from 'express';
import {
  listDeliveries,
  createWebhook,
  disableWebhook,
  listWebhooks,
  type DeliveryRecord,
  type WebhookRecord,
} from '../../webhooks/webhooks-repository.js';
import { SIGNATURE_HEADER } from '../../webhooks/signature.js';
import { checkWebhookTarget, targetPolicy } from '../../webhooks/target-policy.js';
import type { ApiContext } from '../../http/context.js';
import { notFound } from '../../http/http-error.js';
import { requireAuth } from '../require-auth.js';
import { parseOr400 } from '../../http/validate.js';
import { createWebhookBody } from '../webhook-schemas.js';
import { isUuid } from '../../model/uuid.js';

const EVENTS = ['job.completed', 'job.error'];

const webhookJson = (w: WebhookRecord) => ({
  id: w.id,
  url: w.url,
  events: EVENTS,
  created_at: w.createdAt.toISOString(),
});
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const deliveryJson = (d: DeliveryRecord) => ({
  id: d.id,
  job_id: d.jobId,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  response_status: d.responseStatus,
  last_error: d.lastError,
  created_at: d.createdAt.toISOString(),
  last_attempt_at: iso(d.lastAttemptAt),
  finished_at: iso(d.finishedAt),
});

export function webhookRoutes(ctx: ApiContext): Router {
  const r = Router();
  const auth = requireAuth(ctx, null, { apiKeyOnly: true });
  const policy = targetPolicy(ctx.cfg);

  r.post('/webhooks', auth, async (req, res) => {
    const body = parseOr400(createWebhookBody, req.body, 'body');
    // WebhookTargetError and WebhookLimitError are user errors: the one catch answers 400
    const { url } = await checkWebhookTarget(body.url, policy);
    const { webhook, secret } = await createWebhook(ctx.db, req.principal!.customerId, url.href);
    ctx.log.info({ webhookId: webhook.id, customer: req.principal!.customerName }, 'webhook registered');
    res.status(201).json({ ...webhookJson(webhook), secret, signature_header: SIGNATURE_HEADER });
  });

  r.get('/webhooks', auth, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ webhooks: (await listWebhooks(ctx.db, { customerId: req.principal!.customerId })).map(webhookJson) });
  });

  r.delete('/webhooks/:id', auth, async (req, res) => {
    const id = String(req.params.id);
    const done = isUuid(id) ? await disableWebhook(ctx.db, id, req.principal!.customerId) : null;
    if (!done) throw notFound('webhook_not_found', `no active webhook ${id} for this customer`);
    res.status(204).end();
  });

  r.get('/webhooks/:id/deliveries', auth, async (req, res) => {
    const id = String(req.params.id);
    const mine =
      isUuid(id) &&
      (await listWebhooks(ctx.db, { customerId: req.principal!.customerId, includeDisabled: true })).some(
        (w) => w.id === id,
      );
    if (!mine) throw notFound('webhook_not_found', `no webhook ${id} for this customer`);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ deliveries: (await listDeliveries(ctx.db, { webhookId: id, limit: 100 })).map(deliveryJson) });
  });
  return r;
}
