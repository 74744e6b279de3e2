/**
 * The operator API for part models (docs/part-models.md): PUT /models/:partId (the raw
 * .glb, a self-contained .gltf, or a zip of a .gltf with its files, as the body), GET /models/:partId, GET /models,
 * DELETE /models/:partId and POST /models/:partId/rollback. A model replaces a part's
 * procedural model in every customer's renders, so every route takes an admin API key
 * (models:write); session tokens and customer keys get 403.
 *
 * Mounted before the JSON body parser (src/api/app.ts), which refuses bodies that are not JSON.
 */
import express, {
  Router,
  type ErrorRequestHandler,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { getPartsByIds } from '../../catalog/parts.js';
import {
  addModel,
  listModels,
  removeModel,
  rollbackModel,
  showModel,
  UnknownModelPartError,
  type ModelRecord,
} from '../../part-models/model-library.js';
import { modelInputFromBytes } from '../../part-models/model-input.js';
import { modelInputFromZip } from '../../part-models/model-zip.js';
import { modelLimitsFrom } from '../../part-models/model-limits.js';
import { ModelTooLargeError } from '../../part-models/model-errors.js';
import { modelArtifactKey } from '../../storage/artifact-key.js';
import { publicBase, type ApiContext } from '../../http/context.js';
import { badRequest, HttpError } from '../../http/http-error.js';
import { requireAuth } from '../require-auth.js';
import { modelListQuery, modelPutQuery, modelRollbackQuery, PART_ID } from '../schemas.js';
import { parseOverrides } from '../../part-models/model-orientation.js';
import { parseOr400 } from '../../http/validate.js';

/** Body types PUT takes: a GLB (octet-stream: what curl --data-binary and most clients send) or glTF JSON. */
export const GLB_TYPES = ['model/gltf-binary', 'application/octet-stream'];
export const GLTF_TYPE = 'model/gltf+json';
/** A .gltf with its buffers and images (model-zip.ts). */
export const ZIP_TYPE = 'application/zip';
const BODY_TYPES = [...GLB_TYPES, GLTF_TYPE, ZIP_TYPE];

/** The stored model as the API shows it (schemas.ts partModelResponse). */
async function modelView(ctx: ApiContext, base: string, m: ModelRecord, warnings?: string[], placed?: string) {
  return {
    part_id: m.partId,
    sha256: m.sha256,
    triangles: m.triangles ?? 0,
    original_triangles: m.originalTriangles ?? m.triangles ?? 0,
    bytes: m.preparedBytes ?? 0,
    original_bytes: m.originalBytes ?? 0,
    original_name: m.originalName,
    scale: m.scale ?? 1,
    rotation: m.rotation,
    units: (m.units ?? null) as 'm' | 'cm' | 'mm' | 'in' | null,
    up_axis: m.upAxis,
    front_axis: m.frontAxis,
    orientation_guessed: m.orientationGuessed,
    ...(m.version !== undefined ? { version: m.version } : {}),
    ...(placed !== undefined ? { placed } : {}),
    ...(warnings ? { warnings } : {}),
    created_by: m.createdBy,
    created_at: new Date(m.createdAt).toISOString(),
    url: await ctx.store.url(modelArtifactKey(m.sha256), base),
  };
}

/** A malformed part ID gets the answer of a missing one (404 unknown_part, in the library's words). */
function partIdOf(req: Request): string {
  const id = req.params.partId as string;
  if (!PART_ID.test(id)) throw new UnknownModelPartError(id);
  return id;
}

function tooLarge(bytes: number, maxBytes: number): ModelTooLargeError {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return new ModelTooLargeError(
    `the model is ${bytes > maxBytes ? mib(bytes) : 'larger than the limit'}, over the limit of ${mib(maxBytes)}: simplify or compress the textures in the authoring tool, or raise RENDER_FARM_MODEL_MAX_BYTES`,
    bytes,
    maxBytes,
  );
}

/**
 * Checks the body's type and declared size before any byte is read (415, 400 missing_body,
 * 413), then reads it raw up to the model byte limit. A chunked body over the limit is cut off
 * by the parser; that too is answered as model_too_large, not the JSON parser's wording.
 */
function modelBody(maxBytes: number): Array<RequestHandler | ErrorRequestHandler> {
  // a zip's compressed size is bounded here, its uncompressed size by model-zip.ts
  const raw = express.raw({ type: BODY_TYPES, limit: maxBytes });
  const check = (req: Request, _res: Response, next: NextFunction) => {
    const length = Number(req.headers['content-length']);
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (!chunked && !(length > 0)) {
      throw new HttpError(
        400,
        'missing_body',
        'the request body is missing: send the model file as the body (Content-Type: model/gltf-binary for .glb, model/gltf+json for .gltf, application/zip for a .gltf with its files)',
      );
    }
    if (!req.is(BODY_TYPES)) {
      const type = req.get('content-type');
      throw new HttpError(
        415,
        'unsupported_media_type',
        `send the model with Content-Type: model/gltf-binary (.glb; application/octet-stream also works), model/gltf+json (a self-contained .gltf) or application/zip (a .gltf with its files)${type ? `, not ${type}` : ''}`,
      );
    }
    if (Number.isFinite(length) && length > maxBytes) throw tooLarge(length, maxBytes);
    next();
  };
  const translate: ErrorRequestHandler = (err: unknown, _req, _res, next) => {
    const e = err as { type?: string; length?: number };
    if (e?.type === 'entity.too.large') return next(tooLarge(Number(e.length ?? 0), maxBytes));
    next(err);
  };
  return [check, raw, translate];
}

export function modelRoutes(ctx: ApiContext): Router {
  const r = Router();
  const admin = requireAuth(ctx, 'models:write');
  const limits = modelLimitsFrom(ctx.cfg);
  const base = (req: Request) => publicBase(ctx, req);

  // an unknown part is refused before its body is read: an upload can be tens of MiB
  const knownPart: RequestHandler = async (req, _res, next) => {
    const id = partIdOf(req);
    if (!(await getPartsByIds(ctx.db, [id])).length) throw new UnknownModelPartError(id);
    next();
  };

  const putModel: RequestHandler = async (req, res) => {
    const partId = partIdOf(req);
    const q = parseOr400(modelPutQuery, req.query, 'query');
    const orientation = parseOverrides({ up: q.up, front: q.front, units: q.units });
    const zip = req.is(ZIP_TYPE) !== false;
    const gltf = !zip && req.is(GLTF_TYPE) !== false;
    const ext = gltf ? '.gltf' : '.glb';
    // the name decides how a non-GLB body is read (model-input.ts), so it must agree with the type
    if (gltf && q.name !== undefined && !q.name.toLowerCase().endsWith('.gltf')) {
      throw badRequest('invalid_query', `name must end with .gltf when the body is model/gltf+json, not "${q.name}"`, [
        { field: 'name', message: 'must end with .gltf' },
      ]);
    }
    // a zip's model keeps the name it has in the zip, which also says how it is read
    if (zip && q.name !== undefined) {
      throw badRequest(
        'invalid_query',
        `name is not taken with application/zip: the model keeps the name of the .gltf or .glb in the zip, not "${q.name}"`,
        [{ field: 'name', message: 'not taken with application/zip' }],
      );
    }
    const name = q.name ?? `${partId}${ext}`;
    const bytes = new Uint8Array(req.body as Buffer);
    // a .gltf sent alone must carry its buffers and images as data: URIs; a zip brings them
    const input = zip
      ? modelInputFromZip(bytes, limits.modelMaxBytes)
      : modelInputFromBytes(name, bytes, {}, limits.modelMaxBytes);
    const p = req.principal!;
    const added = await addModel(ctx.db, ctx.store, partId, input, {
      limits,
      fit: q.fit,
      force: q.force,
      orientation,
      who: `api:${p.customerName}:${p.keyId ?? 'key'}`,
    });
    // the same bytes again change nothing: 200 with the model as it is, not a new version
    res
      .status(added.unchanged ? 200 : 201)
      .json(await modelView(ctx, base(req), added.model, added.prepared.warnings, added.prepared.orientation.summary));
  };
  r.put('/models/:partId', admin, knownPart, ...modelBody(limits.modelMaxBytes), putModel);

  r.get('/models', admin, async (req, res) => {
    const q = parseOr400(modelListQuery, req.query, 'query');
    const b = base(req);
    const list = await listModels(ctx.db, { category: q.category });
    res.json({
      models: await Promise.all(
        list.map(async (it) => ({
          ...(await modelView(ctx, b, it.model)),
          category: it.part.category,
          name: it.part.name,
        })),
      ),
    });
  });

  r.get('/models/:partId', admin, async (req, res) => {
    const d = await showModel(ctx.db, partIdOf(req));
    const b = base(req);
    res.json({
      part_id: d.part.id,
      category: d.part.category,
      current: d.current ? await modelView(ctx, b, d.current) : null,
      history: await Promise.all(
        d.history.map(async (m) => ({
          ...(await modelView(ctx, b, m)),
          current: d.current?.id === m.id,
          retired_at: m.retiredAt ? new Date(m.retiredAt).toISOString() : null,
        })),
      ),
    });
  });

  r.delete('/models/:partId', admin, async (req, res) => {
    await removeModel(ctx.db, partIdOf(req));
    res.status(204).end();
  });

  r.post('/models/:partId/rollback', admin, async (req, res) => {
    const q = parseOr400(modelRollbackQuery, req.query, 'query');
    const { current } = await rollbackModel(ctx.db, partIdOf(req), q.to);
    res.json(await modelView(ctx, base(req), current));
  });
  return r;
}
