/**
 * Request and response schemas of the API. The same zod objects validate requests and
 * generate /api-docs/openapi.json, so the documentation cannot drift from the behaviour.
 */
import { z } from 'zod';
import { CATEGORIES } from '../model/part.js';
import { MODEL_CATEGORIES } from '../model/part-models.js';
import { interactiveStateSchema } from '../model/interactive-state.js';
import { isNullOrigin, normaliseOrigin } from '../auth/origin.js';
import { isAdminScope, TOKEN_SCOPES } from '../auth/scopes.js';
import { MAX_TTL, MIN_TTL } from '../auth/session-token.js';
import { renderOptionsRules, renderOptionsShape } from '../model/render-options.js';
import { CAMERA_OFFSET_X, CAMERA_ZOOM, MAX_SIZE, MIN_SIZE } from '../model/render-defaults.js';
import { renderRequestSchema } from '../model/render-request.js';
import { spriteLayoutSchema } from '../model/sprite-layout.js';
import { text } from '../model/text.js';
import { intString } from '../http/query-fields.js';
import { JOB_STATUSES } from '../model/job-status.js';

/** A broker's `origin`: normalised (src/auth/origin.ts); "null" (no browser Origin) is no binding. */
const httpOrigin = text().transform((s, ctx) => {
  if (isNullOrigin(s)) return undefined;
  const origin = normaliseOrigin(s);
  if (origin === null) {
    ctx.addIssue({
      code: 'custom',
      message: 'origin must be an http(s) origin like https://shop.example (scheme, host and optional port only)',
    });
    return z.NEVER;
  }
  return origin;
});

const ttl = z
  .number({ error: 'ttl must be an integer number of seconds' })
  .int('ttl must be an integer number of seconds')
  .min(MIN_TTL, `ttl must be at least ${MIN_TTL} seconds`)
  .max(MAX_TTL, `ttl must be at most ${MAX_TTL} seconds`);

export const renderSessionBody = z
  .object({
    ttl_seconds: ttl.optional(),
    ttlSeconds: ttl.optional(),
    scopes: z
      .array(
        z.enum(TOKEN_SCOPES, {
          // an admin scope is known but never a token's (src/auth/scopes.ts): say so rather than "unknown"
          error: (i) =>
            isAdminScope(i.input)
              ? `${String(i.input)} is for admin API keys only: a session token cannot carry it (call the endpoint with an admin API key)`
              : `unknown scope ${JSON.stringify(i.input)}: one of ${TOKEN_SCOPES.join(', ')}`,
        }),
      )
      .min(1, 'scopes must not be empty')
      .max(TOKEN_SCOPES.length * 2)
      .optional(),
    origin: httpOrigin.optional(),
  })
  .strict()
  .meta({
    description: 'ttl_seconds (or ttlSeconds) 30..300, default 120; scopes default [render:submit, render:status].',
  });

export const sessionTokenResponse = z.object({
  session_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  expires_at: z.string().meta({ format: 'date-time' }),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  environment: z.enum(['prod', 'staging']),
  origin: z.string().optional(),
});

export const categoryParam = z.enum(CATEGORIES, {
  error: (i) =>
    i.input === undefined
      ? 'category is required'
      : `unknown category ${JSON.stringify(i.input)}: one of ${CATEGORIES.join(', ')}`,
});

export const MAX_LIMIT = 100;
export const availablePartsQuery = z.object({
  category: categoryParam,
  limit: intString('limit', 0, MAX_LIMIT).optional(),
  skip: intString('skip', 0, 1_000_000_000).optional(),
  environment: z.enum(['prod', 'staging']).optional(),
});

/** A part's current model as part listings show it (null: the part renders procedurally). */
export const partModelField = z
  .object({
    sha256: z.string().meta({ description: 'content address of the prepared GLB (part of the render cache key)' }),
    triangles: z.number().int(),
    updated_at: z.string().meta({ format: 'date-time', description: 'when this model became the current one' }),
  })
  .nullable()
  .meta({ description: 'the part model renders use (docs/part-models.md), or null: the procedural model' });

export const partSummary = z.object({ id: z.string(), name: z.string(), image: z.string().meta({ format: 'uri' }) });
export const partSummaryWithCategory = partSummary.extend({ category: z.enum(CATEGORIES) });
/** Part listings of this API (/available-parts, /parts, /part/:id): the seed's fields plus `model`. */
export const partListItem = partSummary.extend({ model: partModelField });
export const partListItemWithCategory = partSummaryWithCategory.extend({ model: partModelField });

export const availablePartsResponse = z.object({
  data: z.record(z.string(), z.array(partListItem)),
  category: z.enum(CATEGORIES),
  pagination: z.object({
    total: z.number().int(),
    limit: z.number().int(),
    skip: z.number().int(),
    hasNext: z.boolean(),
    hasPrev: z.boolean(),
  }),
});

export const MAX_IDS = 100;
export const partsBody = z
  .object({
    ids: z
      .array(text().min(1).max(64), { error: 'ids must be an array of part ID strings' })
      .max(MAX_IDS, `ids may hold at most ${MAX_IDS} entries`),
  })
  .strict();
export const partsResponse = z.object({ parts: z.array(partListItemWithCategory) });

/** GET /part/:id: a part ID is 4..32 lower-case letters and digits (sql/0001); anything else is 404. */
export const PART_ID = /^[a-z0-9]{4,32}$/;

/** PUT /models/:partId query. */
export const modelPutQuery = z.object({
  fit: z
    .enum(['true', 'false'], { error: 'fit must be true or false' })
    .optional()
    .transform((v) => v === 'true')
    .meta({
      description:
        "scale a model of the part's proportions but the wrong size (no unit brings it within 2x) to the part's real size",
    }),
  force: z
    .enum(['true', 'false'], { error: 'force must be true or false' })
    .optional()
    .transform((v) => v === 'true')
    .meta({ description: "store a model whose proportions are not the part's anyway (with a warning)" }),
  // checked by model-orientation.ts parseOverrides, whose 400 names the values it takes
  up: text().max(8).optional().meta({
    description: "the file's axis that points up: +x, -x, +y, -y, +z, -z (a + may be sent unescaped); default detected",
  }),
  front: text()
    .max(8)
    .optional()
    .meta({ description: "the file's axis that points to the part's front (+x ... -z); default detected" }),
  units: text()
    .max(8)
    .optional()
    .meta({ description: 'what one unit of the file is: m, cm, mm or inch; default detected' }),
  name: text()
    .min(1)
    .max(255)
    .regex(/^[^/\\]+$/, 'name is a file name, not a path')
    .optional()
    .meta({
      description: 'the original file name, kept with the model (default <partId>.glb, or .gltf for model/gltf+json)',
    }),
  environment: z.enum(['prod', 'staging']).optional(),
});

/** POST /models/:partId/rollback query. */
export const modelRollbackQuery = z.object({
  to: text().min(1).max(64).optional().meta({
    description: 'the version to go back to: its `version` in GET /models/{partId}, or a sha256 prefix (4+ hex digits)',
  }),
  environment: z.enum(['prod', 'staging']).optional(),
});

/** GET /models query. */
export const modelListQuery = z.object({
  category: z
    .enum(MODEL_CATEGORIES, {
      error: (i) =>
        `category must be one of ${MODEL_CATEGORIES.join(', ')} (the categories that take models), not ${JSON.stringify(i.input)}`,
    })
    .optional(),
  environment: z.enum(['prod', 'staging']).optional(),
});

/** A stored part model (a row of part_models) as the model API returns it. */
export const partModelResponse = z.object({
  part_id: z.string(),
  sha256: z.string(),
  triangles: z.number().int(),
  original_triangles: z.number().int(),
  bytes: z.number().int().meta({ description: 'size of the prepared GLB' }),
  original_bytes: z.number().int().meta({ description: 'size of the uploaded file (with its files)' }),
  original_name: z.string().nullable(),
  scale: z
    .number()
    .meta({ description: "the uniform scale applied: the file's units to metres, times ?fit=true's (1: none)" }),
  rotation: z.string().nullable().meta({
    description: 'the rotation applied: none, "+90 deg about Y", ...; null on models stored before it was recorded',
  }),
  units: z.enum(['m', 'cm', 'mm', 'in']).nullable().meta({ description: 'what one unit of the file was taken to be' }),
  up_axis: z.string().nullable().meta({ description: "the file's axis that became up (+Y)" }),
  front_axis: z.string().nullable().meta({ description: "the file's axis that became the front (+Z)" }),
  orientation_guessed: z
    .boolean()
    .nullable()
    .meta({ description: 'which way the front faces was a guess (nothing in the file or the request said)' }),
  version: z.number().int().optional().meta({
    description: "its position in the part's history, oldest 1 (GET /models/{partId}); POST .../rollback?to= takes it",
  }),
  placed: z
    .string()
    .optional()
    .meta({ description: 'what was applied, in words (PUT only): "rotated: +90 deg about Y; units: mm -> m"' }),
  warnings: z.array(z.string()).optional().meta({
    description: 'what preparation changed or noticed (PUT only): simplification, resized textures, validator warnings',
  }),
  created_by: z.string().nullable(),
  created_at: z.string().meta({ format: 'date-time' }),
  url: z.string().meta({ format: 'uri', description: 'the prepared GLB (model/gltf-binary, meshopt-compressed)' }),
});

/** GET /models/:partId: the current model and every earlier one. */
export const partModelHistoryResponse = z.object({
  part_id: z.string(),
  category: z.enum(CATEGORIES),
  current: partModelResponse.nullable().meta({ description: 'what renders use; null: the procedural model' }),
  history: z.array(partModelResponse.extend({ current: z.boolean(), retired_at: z.string().nullable() })).meta({
    description:
      'every model the part was given, newest first; POST /models/{partId}/rollback makes the one before the current one current again (?to=<version or sha256 prefix>: that one)',
  }),
});

export const modelListResponse = z.object({
  models: z.array(partModelResponse.extend({ category: z.enum(CATEGORIES), name: z.string() })),
});

/** GET /build/:shareCode: control characters are 400; an unknown (or over-long) code is 404. */
export const shareCodeParams = z.object({ shareCode: text() });

export const buildResponse = z.object({
  shareCode: z.string(),
  name: z.string(),
  description: z.string(),
  parts: z.record(z.string(), z.array(z.string())),
  partDetails: z.record(z.string(), z.array(partSummaryWithCategory)),
  hasInteractiveModel: z.boolean(),
});

export const renderBuildBody = renderRequestSchema.meta({
  description:
    `width and height (${MIN_SIZE}..${MAX_SIZE}) go together; winterMode and springMode are exclusive; ` +
    `cameraOffsetX (${CAMERA_OFFSET_X.min}..${CAMERA_OFFSET_X.max}) and cameraZoom (${CAMERA_ZOOM.min}..${CAMERA_ZOOM.max}) are clamped. ` +
    'gridSettings: cellThickness, sectionThickness, color, fadeDistance, renderOrder.',
});

export const renderByShareCodeBody = z
  .object({ shareCode: text().min(1).max(64), ...renderOptionsShape })
  .strict()
  .superRefine(renderOptionsRules);

export const renderJobResponse = z.object({
  job_id: z.string().meta({ format: 'uuid' }),
  status: z.enum(JOB_STATUSES),
  job_type: z.literal('render').optional(),
  url: z.string().nullable().optional(),
  video_url: z.string().nullable().optional(),
  sprite_url: z.string().nullable().optional(),
  screenshot_url: z.string().nullable().optional(),
  end_time: z.string().nullable().optional(),
  progress: z.number().min(0).max(1).optional(),
  error: z.string().optional(),
  sprite: spriteLayoutSchema.nullable().optional(),
  cached: z.boolean().optional(),
  reused: z.boolean().optional(),
  share_code: z.string().optional(),
  chunks: z.object({ total: z.number().int(), done: z.number().int() }).optional().meta({
    description:
      'present when the render was split into frame-range chunks rendered by any workers (docs/operating.md, "Chunked renders"): how many, and how many are rendered; progress counts frames over all chunks',
  }),
});

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  db: z.enum(['ok', 'down']),
  queue: z.object({
    queued: z.number().int().meta({ description: 'renders waiting for a worker' }),
    processing: z.number().int().meta({ description: 'renders being rendered' }),
    by_kind: z
      .object({
        render: z.object({ queued: z.number().int(), processing: z.number().int() }),
        thumbnail: z.object({ queued: z.number().int(), processing: z.number().int(), failed: z.number().int() }),
      })
      .optional()
      .meta({
        description:
          'queue depth by kind of job: renders, and part thumbnails queued by catalog import (low priority, after every render), counted in parts (a thumbnail job renders a batch of parts; processing counts every part of a running batch)',
      }),
    chunks: z.object({ queued: z.number().int(), processing: z.number().int() }).optional().meta({
      description:
        'frame-range chunks of split renders waiting for and being rendered by workers (a split render counts once under processing)',
    }),
  }),
  workers: z.number().int(),
  renderers: z.array(z.record(z.string(), z.unknown())).optional(),
});

export const errorResponse = z.object({
  error: z.string().meta({ description: 'machine-readable code, e.g. invalid_body, token_expired' }),
  message: z.string(),
  details: z.array(z.object({ field: z.string().optional(), message: z.string() }).passthrough()).optional(),
});

export const interactiveState = interactiveStateSchema;
