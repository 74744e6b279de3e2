/**
 * The OpenAPI 3.1 document, generated from the zod schemas that validate requests
 * (src/api/schemas.ts, src/model/render-options.ts): one source of truth.
 */
import { z } from 'zod';
import * as s from './schemas.js';
import type { Config } from '../config.js';
import { eventPaths, eventWebhooks } from './openapi-events.js';
import { modelPaths } from './openapi-models.js';

type Schema = z.ZodType;
const json = (schema: Schema, io: 'input' | 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  return rest;
};

const errorRef = { $ref: '#/components/schemas/Error' };

/**
 * The error responses, one per status, shared by every operation through
 * `#/components/responses/<name>` (an operation with more to say about one writes its own).
 * Every body is the Error schema: docs/design-decisions.md, "Errors".
 */
const ERROR_RESPONSES: Record<number, { name: string; description: string; retryAfter?: string }> = {
  400: {
    name: 'BadRequest',
    description:
      'invalid request: invalid_json (the message and details say the line and column), missing_body, invalid_body, invalid_query or invalid_params (details name each field), ' +
      'invalid_environment (?environment= other than prod or staging), unsupported_environment (renders run in prod only), conflicting options. ' +
      'Every request body goes through the JSON parser, so an operation that takes none answers this too when one is sent that is not valid JSON',
  },
  401: {
    name: 'Unauthorized',
    description:
      'missing_credentials, invalid_credentials, invalid_token, token_expired (mint a new token), revoked_key, environment_mismatch, origin_mismatch, or api_key_required (the operation takes an API key, not a session token)',
  },
  403: {
    name: 'Forbidden',
    description:
      'missing_scope: the credential lacks the scope the operation needs (its security requirement names it); admin_key_required: models:write is on admin API keys only, never on session tokens',
  },
  404: {
    name: 'NotFound',
    description:
      "not found; the code says what: part_not_found (naming the IDs), build_not_found, job_not_found (also another customer's job), job_expired (deleted by row retention), webhook_not_found, artifact_not_found, not_pregenerated",
  },
  409: {
    name: 'Conflict',
    description:
      "cancel_refused: the job has already ended, or another customer's identical request shares its render (only an operator can cancel it)",
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'payload_too_large: the request body is over the limit (RENDER_FARM_BODY_LIMIT, default 100kb)',
  },
  415: {
    name: 'UnsupportedMediaType',
    description:
      'unsupported_media_type: a request body that is not JSON (send Content-Type: application/json; an operation that takes no body: send none), or unsupported_encoding',
  },
  416: {
    name: 'RangeNotSatisfiable',
    description: 'range_not_satisfiable: the range is outside the file (Content-Range: bytes */size)',
  },
  422: {
    name: 'RenderRefused',
    description:
      'admission refused: frame_too_large (a frame over RENDER_FARM_MAX_FRAME_MEGAPIXELS, default 16.8 MP: 4096x4096 fits, 8192x8192 does not) or render_too_expensive (estimated worker seconds over RENDER_FARM_MAX_JOB_COST, default 600); the message and details name the limit and the estimate. Not retryable as is: ask for less',
  },
  429: {
    name: 'TooManyRequests',
    description:
      'rate limited (per session token or API key, under a per-customer ceiling), too_many_auth_failures from this address, or (render endpoints) customer_busy: your queued and processing renders would pass the per-customer in-flight cap (RENDER_FARM_MAX_CUSTOMER_IN_FLIGHT estimated seconds, default 3600). Retry-After says when to retry',
    retryAfter: 'seconds to wait before retrying',
  },
  500: {
    name: 'InternalError',
    description:
      'internal_error: a bug or a failed dependency; logged on the server with the details (the body never carries a stack trace)',
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      'database_unavailable: the database is unreachable (Retry-After says when to retry); events_unavailable: this server streams no job events (poll instead)',
    retryAfter: 'seconds to wait before retrying (database_unavailable)',
  },
};

const errorResponses = Object.fromEntries(
  Object.values(ERROR_RESPONSES).map(({ name, description, retryAfter }) => [
    name,
    {
      description,
      ...(retryAfter
        ? { headers: { 'Retry-After': { description: retryAfter, schema: { type: 'integer', minimum: 0 } } } }
        : {}),
      content: { 'application/json': { schema: errorRef } },
    },
  ]),
);

/** `errors(400, 401)`: the shared error responses of those statuses. */
const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((c) => {
      const r = ERROR_RESPONSES[c];
      if (!r) throw new Error(`no shared error response for ${c}: add it to ERROR_RESPONSES`);
      return [String(c), { $ref: `#/components/responses/${r.name}` }];
    }),
  );

const ok = (schema: Schema, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: json(schema, 'output') } },
});
const body = (schema: Schema) => ({
  required: true,
  content: { 'application/json': { schema: json(schema, 'input') } },
});
const envParam = {
  name: 'environment',
  in: 'query',
  required: false,
  description:
    "prod (default: the credential's environment) or staging; a token is bound to the environment it was minted for",
  schema: { type: 'string', enum: ['prod', 'staging'] },
};
const secured = (scope: string | null) => ({
  security: [{ bearer: scope ? [scope] : [] }],
  parameters: [envParam],
});

/** What the render submissions answer (/render-build, /render-by-share-code, /internal-render). */
const submitResponses = () => ({
  200: ok(s.renderJobResponse),
  202: ok(s.renderJobResponse, 'accepted: a new job, or (internal-render) still running at the wait bound'),
  ...errors(400, 401, 403, 404, 413, 415, 422, 429, 500, 503),
});
const jobIdParams = () => [
  { name: 'jobId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
  envParam,
];

/**
 * The document without `servers`, which depend on the request (withServer). `cfg`: the model
 * limits the document quotes (default: the built-in defaults).
 */
export function buildOpenApi(
  version: string,
  cfg?: Pick<Config, 'modelMaxBytes' | 'modelMaxTriangles' | 'modelMaxTextureSize' | 'modelMaxNodes'>,
): Record<string, unknown> {
  const helpers = { json, ok, body, errors, secured, envParam };
  return {
    openapi: '3.1.0',
    info: {
      title: 'render-farm API',
      version,
      description:
        'Renders 360-degree turntable videos (MP4) and sprite sheets (WebP) of PC builds, and serves part and build data. ' +
        'Authenticate with `Authorization: Bearer <token>`: a session token minted by POST /auth/render-session (browsers), ' +
        'or a long-lived API key (server-side only; from a browser it still works but the response carries X-Service-Auth-Deprecation). ' +
        'Errors have the body {error, message, details?}. ' +
        'Scopes: render:submit, render:status, data:read (API keys have all three; session tokens what they were minted with); ' +
        'models:write only on admin API keys (`render-farm keys create --admin`), for the part model endpoints (/models), never on session tokens. ' +
        'Public operations (health, metrics, artifacts, part images, this document) take no credentials: their `security` is empty.\n\n' +
        'Every operation has an `operationId` (camelCase: mintToken, renderBuild, getRenderJob, ...). They are stable: generated clients name their methods after them, ' +
        'so an operationId is never renamed or reused; an operation that changes incompatibly gets a new one, and the old one stays (deprecated) until the next major version.\n\n' +
        'Every operation lists the 4xx and 5xx statuses it can answer with, each with the Error body (500: a bug or a failed dependency, logged on the server). ' +
        '`servers` names this deployment: its public URL (PUBLIC_BASE_URL), else the scheme and host this document was requested with.',
      // package.json says UNLICENSED (proprietary); an SPDX LicenseRef says the same in the form linters expect
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT session token or rfk_ API key' },
      },
      schemas: { Error: json(s.errorResponse, 'output') },
      responses: errorResponses,
    },
    webhooks: eventWebhooks(helpers),
    paths: {
      ...eventPaths(helpers),
      ...modelPaths(helpers, cfg),
      '/auth/render-session': {
        post: {
          operationId: 'mintToken',
          summary: 'Mint a session token (API key only)',
          ...secured(null),
          // every field is optional, so no body at all mints with the defaults; a non-JSON body is 415
          requestBody: { ...body(s.renderSessionBody), required: false },
          responses: { 200: ok(s.sessionTokenResponse), ...errors(400, 401, 413, 415, 429, 500, 503) },
        },
      },
      '/available-parts': {
        get: {
          operationId: 'listAvailableParts',
          summary: 'List parts of one category (paged)',
          ...secured('data:read'),
          parameters: [
            { name: 'category', in: 'query', required: true, schema: json(s.categoryParam, 'input') },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 100, default: 20 } },
            { name: 'skip', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
            envParam,
          ],
          responses: { 200: ok(s.availablePartsResponse), ...errors(400, 401, 403, 413, 415, 429, 500, 503) },
        },
      },
      '/parts': {
        post: {
          operationId: 'getParts',
          summary: 'Part details by ID (at most 100; unknown IDs are left out)',
          ...secured('data:read'),
          requestBody: body(s.partsBody),
          responses: { 200: ok(s.partsResponse), ...errors(400, 401, 403, 413, 415, 429, 500, 503) },
        },
      },
      '/build/{shareCode}': {
        get: {
          operationId: 'getBuild',
          summary: 'A saved build by share code',
          ...secured('data:read'),
          parameters: [{ name: 'shareCode', in: 'path', required: true, schema: { type: 'string' } }, envParam],
          responses: { 200: ok(s.buildResponse), ...errors(400, 401, 403, 404, 413, 415, 429, 500, 503) },
        },
      },
      '/render-build': {
        post: {
          operationId: 'renderBuild',
          summary: 'Submit an asynchronous render job',
          description:
            "Only the prod environment (400 otherwise). New job: 202 {job_id, status: processing}. Cache hit (identical request already rendered): 200 {job_id, status: completed, url, video_url|sprite_url, screenshot_url, cached: true}. In-flight reuse (identical request queued or rendering): 200 {job_id, status: processing, reused: true}. Unknown part IDs: 404 naming them. Identical requests are rendered once and shared across customers; each customer gets its own pollable job id. A failed render is tried again when submitted again. Admission: a new render is estimated (seconds of worker time from pixels x frames x profile) and refused with 422 over the per-job limits, or 429 customer_busy when the customer's in-flight work would pass its cap; a cache hit or an in-flight reuse adds no work and is never refused by the cap. Scheduling: a new render is queued behind the customer's own in-flight work (a customer with a large backlog does not delay other customers' small jobs).",
          ...secured('render:submit'),
          requestBody: body(s.renderBuildBody),
          responses: submitResponses(),
        },
      },
      '/render-build/{jobId}': {
        get: {
          operationId: 'getRenderJob',
          summary: 'Poll a render job',
          description:
            "States: queued (until a worker claims it), processing (with progress 0..1), completed (end_time, url, video_url or sprite_url, screenshot_url; sprites add the sheet layout `sprite`), error (end_time, error: a human message). URL fields that do not apply are null. Another customer's job, or an unknown or malformed id: 404 `job_not_found`. A job deleted by row retention (older than RENDER_FARM_ROW_RETENTION_DAYS, default 30): 404 `job_expired`, with a message saying so; submit the same request again for a new job. A render whose files storage retention removed (unrequested past the store's age or byte budget) reads as error with a message starting `expired:`; submitting the same request renders it again.",
          ...secured('render:status'),
          parameters: jobIdParams(),
          responses: { 200: ok(s.renderJobResponse), ...errors(400, 401, 403, 404, 413, 415, 429, 500, 503) },
        },
      },
      '/render-build/{jobId}/cancel': {
        post: {
          operationId: 'cancelRenderJob',
          summary: 'Cancel a queued or running render job',
          description:
            "The job ends as status error with an error starting `cancelled:`: the response already says error; a queued job never starts, a processing one's worker stops when it next reports progress (within seconds). Submitting the same request again (or `render-farm jobs retry`) renders it again. Already completed or failed: 409 `cancel_refused`. Another customer's identical request shares the render: 409 `cancel_refused` (only an operator can cancel it: `render-farm jobs cancel`). Another customer's job or an unknown id: 404 `job_not_found`.",
          ...secured('render:submit'),
          parameters: jobIdParams(),
          responses: { 200: ok(s.renderJobResponse), ...errors(400, 401, 403, 404, 409, 413, 415, 429, 500, 503) },
        },
      },
      '/render-by-share-code': {
        post: {
          operationId: 'renderByShareCode',
          summary: 'Render a saved build (its interactive state is applied)',
          description:
            "Same responses as /render-build, plus share_code. The build's saved interactive state (fan slots, radiator slot, RGB colour) is applied. Unknown share code: 404. Admission and scheduling as for /render-build (422, 429 customer_busy).",
          ...secured('render:submit'),
          requestBody: body(s.renderByShareCodeBody),
          responses: submitResponses(),
        },
      },
      '/internal-render': {
        post: {
          operationId: 'internalRender',
          summary: 'Synchronous render for trusted server-side callers and CI',
          description:
            'Body like /render-build. Waits for the render (bounded by RENDER_FARM_INTERNAL_RENDER_WAIT, default 300 s) and returns the job object: 200 when completed or failed, 202 with the current state when the bound passed first (poll /render-build/{jobId}).',
          ...secured('render:submit'),
          requestBody: body(s.renderBuildBody),
          responses: submitResponses(),
        },
      },
      '/render-build-experimental': {
        post: {
          operationId: 'renderBuildExperimental',
          summary: 'Legacy: pregenerated bytes only',
          description:
            'Body like /render-build (same validation and error statuses; unknown part IDs: 404 part_not_found naming them). ' +
            'Returns the bytes pregenerated by `render-farm pregen` for the visible-part combination and the options that change pixels ' +
            '(format, size, profile, scene, background, grid, seasons, camera, frame quality, all resolved with their defaults): ' +
            '`video/mp4` or `image/webp`, with Content-Length, ETag and single byte ranges (Range, If-Range; 206, 416). ' +
            'Part order does not matter, and parts that cannot be seen do not either: a CPU under a CPU cooler, 2.5-inch drives behind the motherboard tray, ' +
            'and, in a solid-panel case, the parts inside it except the motherboard, liquid coolers and over-long cards (the PSU counts by its ATX/SFX footprint). ' +
            'A combination that has not been pregenerated: 404 not_pregenerated. Never renders on demand. The response header X-Pregenerated-Key names the cache entry.',
          ...secured('render:submit'),
          parameters: [
            envParam,
            {
              name: 'Range',
              in: 'header',
              required: false,
              description: 'a single byte range, e.g. bytes=0-1023',
              schema: { type: 'string' },
            },
          ],
          requestBody: body(s.renderBuildBody),
          responses: {
            200: {
              description: 'the pregenerated bytes',
              content: {
                'video/mp4': { schema: { type: 'string', format: 'binary' } },
                'image/webp': { schema: { type: 'string', format: 'binary' } },
              },
            },
            206: {
              description: 'the requested byte range (Content-Range)',
              content: {
                'video/mp4': { schema: { type: 'string', format: 'binary' } },
                'image/webp': { schema: { type: 'string', format: 'binary' } },
              },
            },
            ...errors(400, 401, 403, 404, 413, 415, 416, 429, 500, 503),
          },
        },
      },
      '/health': {
        get: {
          operationId: 'getHealth',
          summary: 'Liveness and dependencies (no auth)',
          description:
            'queue: renders queued and processing, and by_kind: renders and part thumbnails in parts (queued by catalog import in batch jobs, low priority; processing: the parts of running batches; failed: parts of thumbnail jobs that used up their attempts); workers: live workers (heartbeat within 30 s); renderers: the GL backend of each (gpu: ANGLE over Vulkan on a GPU, egl: Mesa llvmpipe or a vendor EGL driver, swiftshader), whether it draws on a GPU (gpu.found, gpu.detail: driver and renderer, or why none), where its Chromium and ffmpeg come from (system, config or npm package), and a note when it renders on the slow path (SwiftShader, about 3x slower than Mesa over EGL).',
          security: [],
          responses: { 200: ok(s.healthResponse), ...errors(400, 413, 415, 500, 503) },
        },
      },
      '/metrics': {
        get: {
          operationId: 'getMetrics',
          summary: 'Prometheus metrics (no auth; keep the API on a private network or scrape through a proxy)',
          security: [],
          responses: {
            200: { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } },
            ...errors(400, 413, 415, 500),
          },
        },
      },
      '/artifacts/{key}': {
        get: {
          operationId: 'getArtifact',
          summary: 'A rendered file (filesystem store): video, sprite sheet, screenshot',
          description:
            'The URLs in job objects. No auth: keys are content hashes. Content-Type, ETag (If-None-Match -> 304), single Range requests (206, 416), Cache-Control immutable. With S3 storage the URLs point at the bucket instead.',
          security: [],
          parameters: [
            {
              name: 'key',
              in: 'path',
              required: true,
              schema: { type: 'string' },
              description:
                "the path after /artifacts/ in a job object's URL, e.g. renders/ab/abcdef…/turntable.mp4; its slashes may be sent as is or percent-encoded (%2F)",
            },
            {
              name: 'Range',
              in: 'header',
              required: false,
              description: 'a single byte range, e.g. bytes=0-1023',
              schema: { type: 'string' },
            },
            {
              name: 'If-None-Match',
              in: 'header',
              required: false,
              description: 'the ETag of a copy you hold: 304 when it still matches',
              schema: { type: 'string' },
            },
          ],
          responses: {
            200: {
              description: 'the file',
              content: Object.fromEntries(
                ['video/mp4', 'image/webp', 'image/png', 'model/gltf-binary'].map((t) => [
                  t,
                  { schema: { type: 'string', format: 'binary' } },
                ]),
              ),
            },
            206: {
              description: 'the requested byte range (Content-Range)',
              content: Object.fromEntries(
                ['video/mp4', 'image/webp', 'image/png', 'model/gltf-binary'].map((t) => [
                  t,
                  { schema: { type: 'string', format: 'binary' } },
                ]),
              ),
            },
            304: { description: 'not modified (If-None-Match matched the ETag)' },
            ...errors(400, 404, 413, 415, 416, 500),
          },
        },
      },
      '/assets/parts/{id}': {
        get: {
          operationId: 'getPartImage',
          summary: 'Image of a part (no auth, for <img> tags)',
          description:
            'A rendered product shot of the part alone (256x256 WebP, transparent background), made by `render-farm pregen --thumbnails` ' +
            'or by the low-priority thumbnail job that `catalog import` queues; until it is rendered, an SVG placeholder for the category. ' +
            "The URL is stable while the image changes with the part's data: revalidate with the ETag (If-None-Match -> 304).",
          security: [],
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            200: {
              description: 'image',
              content: {
                'image/webp': { schema: { type: 'string', format: 'binary' } },
                'image/svg+xml': { schema: { type: 'string' } },
              },
            },
            304: { description: 'not modified (If-None-Match matched the ETag)' },
            ...errors(400, 404, 413, 415, 500, 503),
          },
        },
      },
      '/api-docs/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document (no auth); the interactive docs are at /api-docs/',
          security: [],
          responses: {
            200: {
              description: 'the OpenAPI 3.1 document',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            ...errors(400, 413, 415, 500),
          },
        },
      },
    },
  };
}

/**
 * The document as served: `servers` is this deployment's base URL (PUBLIC_BASE_URL, else the
 * scheme and host of the request: src/http/context.ts publicBase), so a client generated from
 * it talks to the server it came from.
 */
export function withServer(doc: Record<string, unknown>, url: string): Record<string, unknown> {
  const { openapi, info, ...rest } = doc;
  return { openapi, info, servers: [{ url, description: 'this deployment' }], ...rest };
}
