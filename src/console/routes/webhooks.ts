/** The webhooks page (operators): every customer's webhooks and one webhook's deliveries. */
import { Router } from 'express';
import { isUuid } from '../../model/uuid.js';
import { listDeliveries, listWebhooks } from '../../webhooks/webhooks-repository.js';
import type { ApiContext } from '../../http/context.js';
import { notFound } from '../../http/http-error.js';
import type * as Api from '../console-api.js';
import { requireAdmin } from '../console-security.js';
import { iso } from '../iso-time.js';

const WEBHOOK_EVENTS = ['job.completed', 'job.error'];

export function webhookRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/console/api/webhooks', async (req, res) => {
    requireAdmin(req);
    const hooks = await listWebhooks(ctx.db, { includeDisabled: true });
    const body: Api.WebhookView[] = hooks.map((w) => ({
      id: w.id,
      url: w.url,
      customer: w.customer,
      events: WEBHOOK_EVENTS,
      disabledAt: iso(w.disabledAt),
    }));
    res.json(body);
  });

  r.get('/console/api/webhooks/:id/deliveries', async (req, res) => {
    requireAdmin(req);
    const id = String(req.params.id);
    if (!isUuid(id)) throw notFound('webhook_not_found', `no webhook ${id}`);
    const list = await listDeliveries(ctx.db, { webhookId: id, limit: 100 });
    const body: Api.DeliveryView[] = list.map((d) => ({
      id: d.id,
      event: d.event,
      status: d.status,
      attempts: d.attempts,
      lastAttemptAt: iso(d.lastAttemptAt),
      responseStatus: d.responseStatus,
    }));
    res.json(body);
  });
  return r;
}
