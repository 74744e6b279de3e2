/**
 * OpenAPI entries for job events: the SSE endpoint, webhook registration, and the webhook
 * requests the farm sends (OpenAPI 3.1 `webhooks`). Built with openapi.ts's helpers.
 */
import type { z } from 'zod';
import { renderJobResponse } from './schemas.js';
import * as w from './webhook-schemas.js';

export interface OpenApiHelpers {
  json(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown>;
  ok(schema: z.ZodType, description?: string): Record<string, unknown>;
  body(schema: z.ZodType): Record<string, unknown>;
  errors(...codes: number[]): Record<string, unknown>;
  secured(scope: string | null): Record<string, unknown>;
  envParam: Record<string, unknown>;
}

const SIGNATURE_DOC =
  "Every request carries `Render-Farm-Signature: t=<unix seconds>,v1=<hex>` where v1 is HMAC-SHA256, keyed with the webhook's secret, " +
  'over the string `<t>.<raw body>`; recompute it over the bytes received, compare in constant time, and refuse t more than 5 minutes from now. ' +
  '`Render-Farm-Event` names the event and `Render-Farm-Delivery` the delivery id (the same id may arrive twice: deduplicate on it). ' +
  'Answer 2xx within 10 s; anything else (or a redirect, or a time-out) is retried with exponential backoff (about e^n seconds after attempt n) up to 10 attempts (about 3 hours), ' +
  'then the delivery is marked failed. Deliveries never delay renders.';

export function eventPaths(h: OpenApiHelpers): Record<string, unknown> {
  const uuidParam = (name: string) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string', format: 'uuid' },
  });
  return {
    '/render-build/{jobId}/events': {
      get: {
        operationId: 'followRenderJobEvents',
        summary: 'Follow a render job with Server-Sent Events (instead of polling)',
        description:
          'Same scope (render:status) and ownership as GET /render-build/{jobId}; the polling contract is unchanged. ' +
          'EventSource cannot send headers, so a session token may be passed as `?access_token=` (API keys may not: URLs end up in logs; 401 api_key_in_url). ' +
          'Events (`data` is JSON): `status` {job_id, status, progress} first with the current state, then on every change; ' +
          '`progress` {job_id, status, progress} at most twice a second; then `completed` or `error` with the whole job object (as GET /render-build/{jobId} returns it), and the stream ends. ' +
          'A job that is already finished gets its final event at once. Comment lines (`: heartbeat`) keep idle connections open (every 15 s, RENDER_FARM_EVENTS_HEARTBEAT). ' +
          'Every event has an `id`; reconnecting with `Last-Event-ID` (EventSource does it by itself) replays the changes missed, progress collapsed to the newest value; ' +
          'when the final event was already seen the answer is 204, which stops EventSource from reconnecting. ' +
          'Any serve process can stream any job: events travel through PostgreSQL (LISTEN/NOTIFY), not process memory. Call `close()` on the EventSource after `completed` or `error`.',
        ...h.secured('render:status'),
        parameters: [
          uuidParam('jobId'),
          h.envParam,
          {
            name: 'access_token',
            in: 'query',
            required: false,
            description: 'a session token, for EventSource (which cannot set Authorization)',
            schema: { type: 'string' },
          },
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            description: 'the id of the last event received; `?lastEventId=` works too',
            schema: { type: 'string' },
          },
        ],
        responses: {
          200: {
            description: 'an event stream',
            content: {
              'text/event-stream': {
                schema: { type: 'string' },
                example:
                  'retry: 3000\n\nid: 41\nevent: status\ndata: {"job_id":"3fa85f64-5717-4562-b3fc-2c963f66afa6","status":"processing","progress":0}\n\n' +
                  'id: 44\nevent: progress\ndata: {"job_id":"3fa85f64-5717-4562-b3fc-2c963f66afa6","status":"processing","progress":0.5}\n\n: heartbeat 2025-01-01T00:00:15.000Z\n\n' +
                  'id: 47\nevent: completed\ndata: {"job_id":"3fa85f64-5717-4562-b3fc-2c963f66afa6","status":"completed","job_type":"render","url":"…","progress":1,…}\n\n',
              },
            },
            'x-event-data': {
              status: h.json(w.jobEventData, 'output'),
              progress: h.json(w.jobEventData, 'output'),
              completed: h.json(renderJobResponse, 'output'),
              error: h.json(renderJobResponse, 'output'),
            },
          },
          204: { description: 'the final event was already delivered (Last-Event-ID): do not reconnect' },
          ...h.errors(400, 401, 403, 404, 413, 415, 429, 500, 503),
        },
      },
    },
    '/webhooks': {
      post: {
        operationId: 'createWebhook',
        summary: 'Register a webhook (API key only)',
        description:
          'The farm POSTs job.completed and job.error for every job of this customer whose render ends after registration (a submission answered from the cache fires none: its response already has the result). ' +
          'The URL must be https and resolve to public addresses only (private, loopback, link-local and reserved targets are refused, checked again at every delivery). ' +
          'The signing secret is in this response only. At most 10 webhooks per customer. ' +
          SIGNATURE_DOC,
        ...h.secured(null),
        requestBody: h.body(w.createWebhookBody),
        responses: {
          201: h.ok(w.createdWebhookResponse, 'registered'),
          ...h.errors(400, 401, 413, 415, 429, 500, 503),
        },
      },
      get: {
        operationId: 'listWebhooks',
        summary: "This customer's webhooks (API key only; no secrets)",
        ...h.secured(null),
        responses: { 200: h.ok(w.webhookListResponse), ...h.errors(400, 401, 413, 415, 429, 500, 503) },
      },
    },
    '/webhooks/{id}': {
      delete: {
        operationId: 'deleteWebhook',
        summary: 'Remove a webhook (API key only); its delivery log stays',
        ...h.secured(null),
        parameters: [uuidParam('id'), h.envParam],
        responses: { 204: { description: 'removed' }, ...h.errors(400, 401, 404, 413, 415, 429, 500, 503) },
      },
    },
    '/webhooks/{id}/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery log of a webhook, newest first (API key only)',
        description:
          'status: pending (being tried; attempts so far), delivered, failed (gave up, or the target was refused). response_status and last_error are from the latest attempt.',
        ...h.secured(null),
        parameters: [uuidParam('id'), h.envParam],
        responses: { 200: h.ok(w.deliveryListResponse), ...h.errors(400, 401, 404, 413, 415, 429, 500, 503) },
      },
    },
  };
}

/** OpenAPI 3.1 `webhooks`: the requests a registered URL receives. */
export function eventWebhooks(h: OpenApiHelpers): Record<string, unknown> {
  const headers = [
    {
      name: 'Render-Farm-Signature',
      in: 'header',
      required: true,
      schema: { type: 'string' },
      example: 't=1700000000,v1=51be9920773f454007b9aaf2ef84578604f287a1ad8b1cf6918458c66aac6bd8',
    },
    {
      name: 'Render-Farm-Event',
      in: 'header',
      required: true,
      schema: { type: 'string', enum: ['job.completed', 'job.error'] },
    },
    { name: 'Render-Farm-Delivery', in: 'header', required: true, schema: { type: 'string', format: 'uuid' } },
  ];
  const op = (event: string, operationId: string) => ({
    post: {
      operationId,
      summary: `${event}: a job's render ${event === 'job.completed' ? 'completed' : 'failed'}`,
      description: SIGNATURE_DOC,
      // the farm calls the receiver: no bearer token, the signature authenticates the request
      security: [],
      parameters: headers,
      requestBody: { required: true, content: { 'application/json': { schema: h.json(w.webhookPayload, 'output') } } },
      responses: { 200: { description: 'any 2xx acknowledges the delivery' } },
    },
  });
  return {
    'job.completed': op('job.completed', 'jobCompletedWebhook'),
    'job.error': op('job.error', 'jobErrorWebhook'),
  };
}
