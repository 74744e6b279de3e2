/**
 * OpenAPI entries for part models: the operator API (/models, admin API keys) and GET /part/{id}.
 * Built with openapi.ts's helpers; the limits quoted are the configured ones, so the document
 * says what this deployment enforces.
 */
import type { Config } from '../config.js';
import { MODEL_CATEGORIES } from '../model/part-models.js';
import type { OpenApiHelpers } from './openapi-events.js';
import * as s from './schemas.js';

type ModelLimitsDoc = Pick<Config, 'modelMaxBytes' | 'modelMaxTriangles' | 'modelMaxTextureSize' | 'modelMaxNodes'>;

/** The defaults of src/config.ts: what the document says when it is built without a config (tests, tools). */
const DEFAULT_LIMITS: ModelLimitsDoc = {
  modelMaxBytes: 64 * 1024 * 1024,
  modelMaxTriangles: 150_000,
  modelMaxTextureSize: 2048,
  modelMaxNodes: 1000,
};

const ADMIN =
  "Needs an admin API key (`render-farm keys create --admin`, scope models:write): a model changes what every customer's renders show. " +
  'Customer API keys get 403 missing_scope; session tokens get 403 admin_key_required (they can never carry models:write).';

export function modelPaths(h: OpenApiHelpers, limits: ModelLimitsDoc = DEFAULT_LIMITS): Record<string, unknown> {
  const MiB = 1024 * 1024;
  const b = limits.modelMaxBytes;
  const size = b >= MiB ? `${(b / MiB).toFixed(b % MiB ? 1 : 0)} MiB` : `${Math.round(b / 1024)} KiB`;
  const errorRef = { $ref: '#/components/schemas/Error' };
  const err = (description: string) => ({ description, content: { 'application/json': { schema: errorRef } } });
  const partIdParam = {
    name: 'partId',
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[a-z0-9]{4,32}$' },
    description: 'a catalog part ID',
  };
  const admin = h.secured('models:write');
  const forbidden = {
    403: err('a customer API key (missing_scope) or a session token (admin_key_required): use an admin API key'),
  };
  const unknownPart = { 404: err('unknown_part: no such part in the catalog') };

  const conventions =
    `Conventions (docs/part-models.md): glTF 2.0, metres, +Y up, the front facing +Z, the part as installed in a tower whose window is on -X. ` +
    `Models are taken for ${MODEL_CATEGORIES.join(', ')}. The bounding box is checked against the part's catalog size: off by more than 2x on any axis is refused (422, measured vs expected) unless ?fit=true scales it. ` +
    "Materials named or tagged (extras.rgb) RGB take the build's RGB colour; a case may carry anchor_* empty nodes. " +
    `Limits (RENDER_FARM_MODEL_MAX_*): ${size} per file (413 model_too_large), ${limits.modelMaxTriangles} triangles per part (more are simplified, 422 when still over), ` +
    `${limits.modelMaxTextureSize} px per texture side (larger are resized; far larger refused), ${limits.modelMaxNodes} nodes. ` +
    'Validated with the Khronos glTF validator (422 invalid_model with its first errors in message and details), then prepared: dedup, weld, prune, join, simplify, WebP textures, meshopt compression; ' +
    'stored content-addressed as models/<sha256>.glb. Nothing is stored when a model is refused.';

  return {
    '/models': {
      get: {
        operationId: 'listPartModels',
        summary: 'List the parts that have a model (admin)',
        description: `${ADMIN} Each part's current model, by category then part ID.`,
        ...admin,
        parameters: [
          { name: 'category', in: 'query', required: false, schema: { type: 'string', enum: [...MODEL_CATEGORIES] } },
          h.envParam,
        ],
        responses: { 200: h.ok(s.modelListResponse), ...h.errors(400, 401), ...forbidden, ...h.errors(429, 500, 503) },
      },
    },
    '/models/{partId}': {
      put: {
        operationId: 'putPartModel',
        summary: 'Give a part a model, or replace it (admin)',
        description:
          `${ADMIN} The body is the model file itself: a .glb as model/gltf-binary (or application/octet-stream), or a self-contained .gltf (buffers and images as data: URIs) as model/gltf+json; ` +
          'other types are 415, external URIs 422. 201 with the stored model (a new version: the previous one is kept, POST /models/{partId}/rollback restores it); ' +
          `200 when the part's current model already has these prepared bytes. The render cache key includes the model's sha256, so the next render of a build with the part is new. ${conventions}`,
        ...admin,
        parameters: [
          partIdParam,
          {
            name: 'fit',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
            description:
              "scale a model of the part's proportions but the wrong size (no unit fits) to the part's catalog size",
          },
          {
            name: 'force',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
            description: "store a model whose proportions are not the part's anyway, with a warning",
          },
          {
            name: 'up',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['+x', '-x', '+y', '-y', '+z', '-z', 'x', 'y', 'z'] },
            description: "the file's axis that points up (default detected from its size and names)",
          },
          {
            name: 'front',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['+x', '-x', '+y', '-y', '+z', '-z', 'x', 'y', 'z'] },
            description: "the file's axis that points to the part's front (default detected)",
          },
          {
            name: 'units',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['m', 'cm', 'mm', 'in', 'inch'] },
            description: 'what one unit of the file is (default detected)',
          },
          {
            name: 'name',
            in: 'query',
            required: false,
            schema: { type: 'string', maxLength: 255 },
            description:
              'the original file name, kept with the model (default <partId>.glb, or .gltf for model/gltf+json, which needs a .gltf name; not taken with application/zip, whose model keeps its name in the zip)',
          },
          h.envParam,
        ],
        requestBody: {
          required: true,
          content: {
            'model/gltf-binary': { schema: { type: 'string', format: 'binary' } },
            'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
            'model/gltf+json': {
              schema: { type: 'object', description: 'glTF 2.0 JSON with every buffer and image as a data: URI' },
            },
            'application/zip': {
              schema: {
                type: 'string',
                format: 'binary',
                description: 'a zip holding one .gltf (or .glb) and the buffers and images it names, beside it',
              },
            },
          },
        },
        responses: {
          200: h.ok(s.partModelResponse, 'the part already has this model: nothing changed'),
          201: h.ok(s.partModelResponse, "stored: the part's current model"),
          ...h.errors(400, 401),
          ...forbidden,
          ...unknownPart,
          413: err(
            `model_too_large: the body is over the model byte limit (${size}, RENDER_FARM_MODEL_MAX_BYTES), or a zip whose files are over it uncompressed`,
          ),
          415: err(
            'unsupported_media_type: send model/gltf-binary, application/octet-stream, model/gltf+json or application/zip',
          ),
          422: err(
            "invalid_model: a structural limit (truncated or lying header, node cycles or depth, counts, declared sizes, image dimensions from its header), not valid glTF 2.0 (the validator's first errors), an external URI, a wrong size without ?fit=true, over the triangle budget after simplification, too many nodes, a texture far over the limit, a category that takes no model, a preparation that crashed, or a zip that cannot be taken (truncated, over 256 entries, encrypted, a method other than stored or deflate, an absolute, .. or symlink entry, sizes that do not match, no model or more than one); " +
              'model_too_complex: the preparation (its own child process) ran past RENDER_FARM_MODEL_PREPARE_TIMEOUT or RENDER_FARM_MODEL_PREPARE_MEMORY_MB',
          ),
          ...h.errors(429, 500, 503),
        },
      },
      get: {
        operationId: 'getPartModel',
        summary: "A part's model and its history (admin)",
        description: `${ADMIN} current: what renders use (null: the procedural model); history: every model the part was given, newest first.`,
        ...admin,
        parameters: [partIdParam, h.envParam],
        responses: {
          200: h.ok(s.partModelHistoryResponse),
          ...h.errors(400, 401),
          ...forbidden,
          ...unknownPart,
          ...h.errors(429, 500, 503),
        },
      },
      delete: {
        operationId: 'deletePartModel',
        summary: "Remove a part's model: it renders procedurally again (admin)",
        description: `${ADMIN} Every version is retired (kept as history, and the stored GLBs stay). 204; 404 no_model when the part has none.`,
        ...admin,
        parameters: [partIdParam, h.envParam],
        responses: {
          204: { description: 'removed' },
          ...h.errors(400, 401),
          ...forbidden,
          404: err('unknown_part, or no_model: the part has no model'),
          ...h.errors(429, 500, 503),
        },
      },
    },
    '/models/{partId}/rollback': {
      post: {
        operationId: 'rollbackPartModel',
        summary: 'Restore the previous model of a part (admin)',
        description: `${ADMIN} Retires the current model; the one before it is current again and is returned (?to=: every version newer than that one is retired). No body.`,
        ...admin,
        parameters: [
          partIdParam,
          {
            name: 'to',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description:
              'the version to go back to: its `version` in GET /models/{partId}, or a sha256 prefix (4+ hex digits)',
          },
          h.envParam,
        ],
        responses: {
          200: h.ok(s.partModelResponse, 'the model now current'),
          ...h.errors(400, 401),
          ...forbidden,
          404: err('unknown_part; no_model: the part has no model; unknown_version: ?to= names no version of it'),
          409: err(
            'no_previous_model: the part has only its current model; invalid_rollback_target: ?to= names the current or a retired version',
          ),
          ...h.errors(429, 500, 503),
        },
      },
    },
    '/part/{id}': {
      get: {
        operationId: 'getPart',
        summary: 'One part by ID, with its model',
        description:
          'The fields of POST /parts for one part; `model` is its current part model {sha256, triangles, updated_at}, or null when it renders procedurally. Unknown ID: 404 part_not_found.',
        ...h.secured('data:read'),
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, h.envParam],
        responses: { 200: h.ok(s.partListItemWithCategory), ...h.errors(400, 401, 403, 404, 413, 415, 429, 500, 503) },
      },
    },
  };
}
