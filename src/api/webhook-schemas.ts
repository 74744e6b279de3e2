/** Schemas of the webhook and job-event endpoints (validation and OpenAPI, like schemas.ts). */
import { z } from 'zod';
import { renderJobResponse } from './schemas.js';
import { JOB_STATUSES } from '../model/job-status.js';

export const createWebhookBody = z
  .object({
    url: z
      .string({ error: 'url is required: the https URL to POST job events to' })
      .min(1)
      .max(2048)
      .meta({ format: 'uri', description: 'https URL; private, loopback and link-local targets are refused' }),
  })
  .strict();

export const webhookResponse = z.object({
  id: z.string().meta({ format: 'uuid' }),
  url: z.string(),
  events: z.array(z.enum(['job.completed', 'job.error'])),
  created_at: z.string().meta({ format: 'date-time' }),
});

export const createdWebhookResponse = webhookResponse.extend({
  secret: z.string().meta({ description: 'signing secret (whsec_...): shown only in this response' }),
  signature_header: z.string(),
});

export const webhookListResponse = z.object({ webhooks: z.array(webhookResponse) });

export const deliveryResponse = z.object({
  id: z.string().meta({ format: 'uuid' }),
  job_id: z.string().meta({ format: 'uuid' }),
  event: z.enum(['job.completed', 'job.error']),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  response_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string().meta({ format: 'date-time' }),
  last_attempt_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export const deliveryListResponse = z.object({ deliveries: z.array(deliveryResponse) });

/** What a receiver gets in the POST body. */
export const webhookPayload = z.object({
  event: z.enum(['job.completed', 'job.error']),
  delivery_id: z.string().meta({ format: 'uuid' }),
  created_at: z.string().meta({ format: 'date-time' }),
  job: renderJobResponse,
});

export const jobEventData = z.object({
  job_id: z.string().meta({ format: 'uuid' }),
  status: z.enum(JOB_STATUSES),
  progress: z.number().min(0).max(1),
});
