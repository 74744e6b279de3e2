/** Webhooks and their delivery log (sql/0007_webhooks.sql). Secrets leave only at creation. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { UserError } from '../errors.js';
import { enqueue } from '../jobs/queue/add-job.js';
import type { WebhookDeliveryStatus } from '../db/schema.js';
import { newWebhookSecret } from './signature.js';

/** active webhooks a customer may have */
export const MAX_WEBHOOKS_PER_CUSTOMER = 10;

export interface WebhookRecord {
  id: string;
  customerId: string;
  customer: string;
  url: string;
  createdAt: Date;
  disabledAt: Date | null;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  url: string;
  customer: string;
  jobId: string;
  event: 'job.completed' | 'job.error';
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  lastAttemptAt: Date | null;
  finishedAt: Date | null;
}

/** 400 `too_many_webhooks`, exit 2. */
export class WebhookLimitError extends UserError {
  constructor() {
    super('too_many_webhooks', `a customer can have at most ${MAX_WEBHOOKS_PER_CUSTOMER} webhooks: remove one first`);
    this.name = 'WebhookLimitError';
  }
}

function webhooksQuery(db: Db) {
  return db.db
    .selectFrom('webhooks as w')
    .innerJoin('customers as c', 'c.id', 'w.customer_id')
    .select(['w.id', 'w.customer_id', 'c.name as customer', 'w.url', 'w.created_at', 'w.disabled_at']);
}

function toWebhook(r: {
  id: string;
  customer_id: string;
  customer: string;
  url: string;
  created_at: Date;
  disabled_at: Date | null;
}): WebhookRecord {
  return {
    id: r.id,
    customerId: r.customer_id,
    customer: r.customer,
    url: r.url,
    createdAt: new Date(r.created_at),
    disabledAt: r.disabled_at,
  };
}

/** Registers a URL (already checked by the caller); returns the record and the secret, once. */
export async function createWebhook(
  db: Db,
  customerId: string,
  url: string,
): Promise<{ webhook: WebhookRecord; secret: string }> {
  const secret = newWebhookSecret();
  const id = await db.db.transaction().execute(async (trx) => {
    // serialise registrations of one customer so the limit holds under concurrency
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${customerId}`}))`.execute(trx);
    const { n } = await trx
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('customer_id', '=', customerId)
      .where('disabled_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_WEBHOOKS_PER_CUSTOMER) throw new WebhookLimitError();
    const row = await trx
      .insertInto('webhooks')
      .values({ customer_id: customerId, url, secret })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  const webhook = toWebhook(await webhooksQuery(db).where('w.id', '=', id).executeTakeFirstOrThrow());
  return { webhook, secret };
}

export async function listWebhooks(
  db: Db,
  opts: { customerId?: string; includeDisabled?: boolean } = {},
): Promise<WebhookRecord[]> {
  let q = webhooksQuery(db);
  if (opts.customerId) q = q.where('w.customer_id', '=', opts.customerId);
  if (!opts.includeDisabled) q = q.where('w.disabled_at', 'is', null);
  return (await q.orderBy('w.created_at').execute()).map(toWebhook);
}

/** Disables a webhook (its log stays); null when there is no such active webhook for the customer. */
export async function disableWebhook(db: Db, id: string, customerId?: string): Promise<WebhookRecord | null> {
  let q = db.db
    .updateTable('webhooks')
    .set({ disabled_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('disabled_at', 'is', null);
  if (customerId) q = q.where('customer_id', '=', customerId);
  const row = await q.returning('id').executeTakeFirst();
  if (!row) return null;
  return toWebhook(await webhooksQuery(db).where('w.id', '=', id).executeTakeFirstOrThrow());
}

export interface DeliveryFilter {
  customerId?: string;
  customer?: string;
  webhookId?: string;
  jobId?: string;
  status?: WebhookDeliveryStatus;
  limit?: number;
}

export async function listDeliveries(db: Db, f: DeliveryFilter = {}): Promise<DeliveryRecord[]> {
  let q = db.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('customers as c', 'c.id', 'w.customer_id')
    .selectAll('d')
    .select(['w.url', 'c.name as customer']);
  if (f.customerId) q = q.where('w.customer_id', '=', f.customerId);
  if (f.customer) q = q.where('c.name', '=', f.customer);
  if (f.webhookId) q = q.where('d.webhook_id', '=', f.webhookId);
  if (f.jobId) q = q.where('d.job_id', '=', f.jobId);
  if (f.status) q = q.where('d.status', '=', f.status);
  const rows = await q
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id')
    .limit(f.limit ?? 50)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    webhookId: r.webhook_id,
    url: r.url,
    customer: r.customer,
    jobId: r.job_id,
    event: r.event,
    status: r.status,
    attempts: r.attempts,
    responseStatus: r.response_status,
    lastError: r.last_error,
    createdAt: new Date(r.created_at),
    lastAttemptAt: r.last_attempt_at,
    finishedAt: r.finished_at,
  }));
}

/** A delivery with what sending it needs. */
export async function loadDelivery(db: Db, id: string) {
  return db.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id',
      'd.job_id',
      'd.event',
      'd.status',
      'd.attempts',
      'd.created_at',
      'w.url',
      'w.secret',
      'w.disabled_at',
    ])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

/** Records one attempt; `final` sets the delivery's end state. */
export async function recordAttempt(
  db: Db,
  id: string,
  a: { status: WebhookDeliveryStatus; responseStatus?: number | null; error?: string | null },
): Promise<void> {
  await db.db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      status: a.status,
      response_status: a.responseStatus ?? null,
      last_error: a.error ? a.error.slice(0, 500) : null,
      last_attempt_at: sql<Date>`now()`,
      finished_at: a.status === 'pending' ? null : sql<Date>`now()`,
    }))
    .where('id', '=', id)
    .execute();
}

/** Queues a delivery again (a new row, so the log keeps the old one); null when unknown or its webhook was removed. */
export async function redeliver(db: Db, deliveryId: string): Promise<string | null> {
  return db.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('webhook_deliveries')
      .columns(['webhook_id', 'job_id', 'event'])
      .expression((eb) =>
        eb
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
          .select(['d.webhook_id', 'd.job_id', 'd.event'])
          .where('d.id', '=', deliveryId)
          // a removed webhook gets nothing more
          .where('w.disabled_at', 'is', null),
      )
      .returning('id')
      .executeTakeFirst();
    if (!row) return null;
    await enqueue(trx, 'webhook', { deliveryId: row.id });
    return row.id;
  });
}
