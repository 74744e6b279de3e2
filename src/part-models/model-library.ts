/**
 * The model library: which prepared model each part has now, and what it had before. A model
 * is prepared (prepare-model.ts: validated, optimised, content-addressed), its GLB stored once
 * under `models/<sha256>.glb`, and a `part_models` row (sql/0010) names it for the part. A
 * part's current model is its newest row not retired; replacing adds a row (the old one stays
 * as history), `rollbackModel` retires the current row so the previous one is current again,
 * `removeModel` retires them all. Stored GLBs are never deleted here: they are content-addressed
 * (another part or an older row may name the same bytes) and cheap next to the renders.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { PartModelsTable } from '../db/schema.js';
import { NotFoundError, UnavailableError, UserError } from '../errors.js';
import { CATEGORIES, isCategory, type Category } from '../model/part.js';
import { MODEL_SHA256 } from '../model/part-models.js';
import { getPartsByIds } from '../catalog/parts.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { modelArtifactKey } from '../storage/artifact-key.js';
import { readAll } from '../storage/read-all.js';
import type { ModelLimits } from './model-limits.js';
import { readModelFile, type ModelInput } from './model-input.js';
import { prepareModelIsolated } from './prepare-isolated.js';
import type { PreparedModel } from './prepare-model.js';
import { parseOverrides, type OrientationOverrides } from './model-orientation.js';

/** The content type prepared models are stored with. */
export const MODEL_CONTENT_TYPE = 'model/gltf-binary';

/** One `part_models` row, as the code reads it. */
export interface ModelRecord {
  id: string;
  partId: string;
  sha256: string;
  originalName: string | null;
  originalBytes: number | null;
  preparedBytes: number | null;
  triangles: number | null;
  originalTriangles: number | null;
  /** the uniform scale applied: the file's units to metres, times fit's (1: metres, to size) */
  scale: number | null;
  /** the rotation and units applied (model-orientation.ts); null on rows stored before they were recorded */
  rotation: string | null;
  units: string | null;
  upAxis: string | null;
  frontAxis: string | null;
  orientationGuessed: boolean | null;
  createdBy: string | null;
  createdAt: Date;
  retiredAt: Date | null;
  /** its position in the part's history, oldest 1 (showModel sets it; `rollback --to` takes it) */
  version?: number;
}

/** The part a model is for, as listings show it. */
export interface PartBrief {
  id: string;
  name: string;
  category: Category;
}

/** Where part IDs are listed, for messages about an unknown one (the CLI's and the API's listing). */
export const PART_LISTINGS =
  'list them with: render-farm catalog parts --category <category> [--search <text>], or GET /available-parts?category=<category>';

/** A part ID the catalog does not have: 404 `unknown_part`. */
export class UnknownModelPartError extends NotFoundError {
  constructor(public readonly partId: string) {
    super('unknown_part', `no part with ID "${partId}" in the catalog: check the ID (${PART_LISTINGS})`, {
      details: [{ field: 'partId', message: 'not found', id: partId }],
    });
    this.name = 'UnknownModelPartError';
  }
}

/** The part has no current model (never given one, or removed): 404 `no_model`. */
export class NoModelError extends NotFoundError {
  /** `also`: another way out, where the caller has one (`models preview --file`) */
  constructor(
    public readonly partId: string,
    also?: string,
  ) {
    super(
      'no_model',
      `part ${partId} has no model: add one with render-farm models add ${partId} <file.glb> (or PUT /models/${partId})${also ? `, or ${also}` : ''}`,
    );
    this.name = 'NoModelError';
  }
}

/** A rollback with nothing to roll back to: 409 `no_previous_model`, exit 2. */
export class NoPreviousModelError extends UserError {
  constructor(public readonly partId: string) {
    super(
      'no_previous_model',
      `part ${partId} has only its current model, nothing to roll back to: add another with models add, or remove it with models rm`,
      {
        status: 409,
      },
    );
    this.name = 'NoPreviousModelError';
  }
}

/** `rollback --to` names no version of the part, or one it cannot go back to: 409 `invalid_rollback_target` (404 when unknown). */
export class RollbackTargetError extends UserError {
  constructor(code: 'unknown_version' | 'invalid_rollback_target', message: string) {
    super(code, message, { status: code === 'unknown_version' ? 404 : 409 });
    this.name = 'RollbackTargetError';
  }
}

/** A manifest or import path that cannot be read as one: 400 `invalid_manifest`, exit 2. */
export class ModelImportError extends UserError {
  constructor(message: string) {
    super('invalid_manifest', message);
    this.name = 'ModelImportError';
  }
}

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

function toRecord(r: Selectable<PartModelsTable>): ModelRecord {
  return {
    id: String(r.id),
    partId: r.part_id,
    sha256: r.sha256,
    originalName: r.original_name,
    originalBytes: num(r.original_bytes),
    preparedBytes: num(r.prepared_bytes),
    triangles: r.triangles,
    originalTriangles: r.original_triangles,
    scale: r.scale,
    rotation: r.rotation,
    units: r.units,
    upAxis: r.up_axis,
    frontAxis: r.front_axis,
    orientationGuessed: r.orientation_guessed,
    createdBy: r.created_by,
    createdAt: r.created_at,
    retiredAt: r.retired_at,
  };
}

async function partOf(db: Db, partId: string): Promise<PartBrief & { specs: unknown }> {
  const [part] = await getPartsByIds(db, [partId]);
  if (!part) throw new UnknownModelPartError(partId);
  return { id: part.id, name: part.name, category: part.category, specs: part.specs };
}

/** Current model rows of these parts (the newest unretired row of each); parts without one are left out. */
export async function currentModelRecords(db: Db, partIds: readonly string[]): Promise<Record<string, ModelRecord>> {
  const unique = [...new Set(partIds)];
  if (unique.length === 0) return {};
  const rows = await db.db.selectFrom('current_part_models').selectAll().where('part_id', 'in', unique).execute();
  return Object.fromEntries(rows.map((r) => [r.part_id, toRecord(r)]));
}

/** Part ID -> sha256 of its current model, for the parts that have one. */
export async function currentModels(db: Db, partIds: readonly string[]): Promise<Record<string, string>> {
  const records = await currentModelRecords(db, partIds);
  return Object.fromEntries(Object.entries(records).map(([id, r]) => [id, r.sha256]));
}

/** What addModel needs besides the model. */
export interface AddModelOptions {
  limits: ModelLimits;
  /** scale a model whose proportions fit but whose size is off (by more than 2x) to the part's catalog size */
  fit?: boolean;
  /** store a model whose proportions are not the part's anyway (with a warning) */
  force?: boolean;
  /** the file's up and front axes and units, instead of detecting them */
  orientation?: OrientationOverrides;
  /** who added it (`cli:<user>`, an API key id), kept on the row */
  who?: string;
}

/** A model added: its row, what preparation did (without the bytes), and whether it was already current. */
export interface AddedModel {
  part: PartBrief;
  model: ModelRecord;
  prepared: Omit<PreparedModel, 'glb'>;
  /** the part's current model already had these bytes: no row was added */
  unchanged: boolean;
}

/**
 * Prepares `input` for part `partId`, stores the GLB (once per sha256) and makes it the part's
 * current model. Throws UnknownModelPartError for an unknown part, and what prepareModel throws
 * (ModelRejectedError, ModelTooLargeError) for a model it refuses; either way nothing is stored.
 */
export async function addModel(
  db: Db,
  store: ArtifactStore,
  partId: string,
  input: ModelInput,
  opts: AddModelOptions,
): Promise<AddedModel> {
  const part = await partOf(db, partId);
  const prepared = await prepareModelIsolated(input, part, {
    limits: opts.limits,
    fit: opts.fit,
    force: opts.force,
    orientation: opts.orientation,
  });
  const { glb, ...info } = prepared;
  const summary: PartBrief = { id: part.id, name: part.name, category: part.category };
  const current = (await currentModelRecords(db, [part.id]))[part.id];
  if (current?.sha256 === prepared.sha256 && (await store.stat(modelArtifactKey(prepared.sha256)))) {
    return { part: summary, model: current, prepared: info, unchanged: true };
  }
  const key = modelArtifactKey(prepared.sha256);
  // content-addressed: bytes already under the key are these bytes
  if (!(await store.stat(key))) await store.putBuffer(key, glb, MODEL_CONTENT_TYPE);
  // the row after the bytes, so a row never names a missing object
  const row = await db.db
    .insertInto('part_models')
    .values({
      part_id: part.id,
      sha256: prepared.sha256,
      original_name: input.name,
      original_bytes: prepared.originalBytes,
      prepared_bytes: prepared.preparedBytes,
      triangles: prepared.triangles,
      original_triangles: prepared.originalTriangles,
      scale: prepared.scale,
      rotation: prepared.orientation.rotation,
      units: prepared.orientation.units,
      up_axis: prepared.orientation.up,
      front_axis: prepared.orientation.front,
      orientation_guessed: prepared.orientation.guessed,
      created_by: opts.who ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { part: summary, model: toRecord(row), prepared: info, unchanged: false };
}

/** One model of an import: added, or why not. */
export type ImportItem =
  | { part: string; file: string; ok: true; added: AddedModel }
  | { part: string; file: string; ok: false; error: { code: string; message: string } };

/** What importModels needs (a manifest item's own `fit` wins over `fit`). */
export type ImportOptions = AddModelOptions;

/**
 * The entries of a manifest: `{ "models": [{ "part": "<id>", "file": "relative/path.glb",
 * "fit"?: bool, "force"?: bool, "up"?: "+z", "front"?: "-x", "units"?: "mm" }] }`.
 */
export interface ManifestItem {
  part: string;
  file: string;
  fit?: boolean;
  force?: boolean;
  orientation?: OrientationOverrides;
}

const MODEL_FILE = /\.(glb|gltf)$/i;

/** The items of a manifest file, with files resolved against its folder; throws ModelImportError naming what is wrong. */
export async function readManifest(manifestPath: string): Promise<ManifestItem[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(manifestPath, 'utf8'));
  } catch (err) {
    throw new ModelImportError(`cannot read manifest ${manifestPath}: ${(err as Error).message}`);
  }
  const list = json && typeof json === 'object' ? (json as { models?: unknown }).models : undefined;
  const shape =
    'a manifest is {"models": [{"part": "<part ID>", "file": "relative/path.glb", "fit": false, "force": false, "up": "+y", "front": "+z", "units": "m"}]} (all but part and file optional)';
  if (!Array.isArray(list)) throw new ModelImportError(`${manifestPath}: no "models" list: ${shape}`);
  const dir = path.dirname(manifestPath);
  return list.map((item: unknown, i) => {
    const it = (item ?? {}) as {
      part?: unknown;
      file?: unknown;
      fit?: unknown;
      force?: unknown;
      up?: unknown;
      front?: unknown;
      units?: unknown;
    };
    const flag = (v: unknown) => v !== undefined && typeof v !== 'boolean';
    if (
      typeof it.part !== 'string' ||
      !it.part ||
      typeof it.file !== 'string' ||
      !it.file ||
      flag(it.fit) ||
      flag(it.force)
    ) {
      throw new ModelImportError(
        `${manifestPath}: models[${i}] needs "part" and "file" strings (and "fit", "force" true or false, if given): ${shape}`,
      );
    }
    let orientation: OrientationOverrides;
    try {
      orientation = parseOverrides(it);
    } catch (err) {
      // a bad value refuses the manifest, as a bad flag refuses the command: nothing is imported
      throw new ModelImportError(`${manifestPath}: models[${i}]: ${(err as Error).message}`);
    }
    return {
      part: it.part,
      file: path.resolve(dir, it.file),
      ...(it.fit !== undefined ? { fit: it.fit as boolean } : {}),
      ...(it.force !== undefined ? { force: it.force as boolean } : {}),
      ...(Object.keys(orientation).length ? { orientation } : {}),
    };
  });
}

/** The models of a folder: every .glb and .gltf in it (not its subfolders), part ID = file name without extension. */
async function folderItems(dir: string): Promise<ManifestItem[]> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isFile() && MODEL_FILE.test(e.name))
    .map((e) => e.name)
    .sort();
  if (names.length === 0)
    throw new ModelImportError(
      `${dir} holds no .glb or .gltf files: name each file after its part ID (e.g. okgxgd18p.glb), or give a manifest.json`,
    );
  return names.map((name) => ({ part: name.replace(MODEL_FILE, ''), file: path.join(dir, name) }));
}

/**
 * Adds many models: from a folder (each `<partId>.glb|.gltf`; a .gltf's files beside it) or a
 * manifest.json. Each model is added or refused on its own, so one bad file does not stop the
 * others; the result lists every item in order. Throws only for an unreadable folder or
 * manifest (ModelImportError) and for an outage (database, store) that would fail every item.
 */
export async function importModels(
  db: Db,
  store: ArtifactStore,
  dirOrManifest: string,
  opts: ImportOptions,
): Promise<ImportItem[]> {
  const s = await stat(dirOrManifest).catch(() => null);
  if (!s)
    throw new ModelImportError(
      `${dirOrManifest}: no such file or folder: give a folder of <partId>.glb files or a manifest.json`,
    );
  let items: ManifestItem[];
  if (s.isDirectory()) items = await folderItems(dirOrManifest);
  else if (/\.json$/i.test(dirOrManifest)) items = await readManifest(dirOrManifest);
  else
    throw new ModelImportError(
      `${dirOrManifest}: give a folder of <partId>.glb files or a manifest .json (for one file, use models add)`,
    );

  const out: ImportItem[] = [];
  for (const item of items) {
    try {
      const input = await readModelFile(item.file, opts.limits.modelMaxBytes);
      // an item's own settings win over the command's
      const added = await addModel(db, store, item.part, input, {
        ...opts,
        fit: item.fit ?? opts.fit,
        force: item.force ?? opts.force,
        orientation: { ...opts.orientation, ...item.orientation },
      });
      out.push({ part: item.part, file: item.file, ok: true, added });
    } catch (err) {
      // an outage is not this file's fault and would fail the rest too
      if (err instanceof UnavailableError) throw err;
      const code = err instanceof UserError ? err.code : 'failed';
      out.push({
        part: item.part,
        file: item.file,
        ok: false,
        error: { code, message: err instanceof Error ? err.message : String(err) },
      });
    }
  }
  return out;
}

/** A part with its current model, as `models list` shows it. */
export interface ModelListItem {
  part: PartBrief;
  model: ModelRecord;
}

/** Every part with a current model (optionally of one category), by category then part ID. */
export async function listModels(db: Db, filter: { category?: string } = {}): Promise<ModelListItem[]> {
  if (filter.category !== undefined && !isCategory(filter.category)) {
    throw new UserError('invalid_category', `unknown category "${filter.category}": use ${CATEGORIES.join(', ')}`);
  }
  let q = db.db
    .selectFrom('current_part_models as m')
    .innerJoin('parts as p', 'p.id', 'm.part_id')
    .selectAll('m')
    .select(['p.name as part_name', 'p.category as part_category']);
  if (filter.category) q = q.where('p.category', '=', filter.category as Category);
  const rows = await q.execute();
  const order = (c: Category) => CATEGORIES.indexOf(c);
  return rows
    .map(({ part_name, part_category, ...r }) => ({
      part: { id: r.part_id, name: part_name, category: part_category },
      model: toRecord(r),
    }))
    .sort(
      (a, b) =>
        order(a.part.category) - order(b.part.category) || (a.part.id < b.part.id ? -1 : a.part.id > b.part.id ? 1 : 0),
    );
}

/** A part's model and its history. */
export interface ModelDetail {
  part: PartBrief;
  /** null: the part has no model (never had one, or it was removed) */
  current: ModelRecord | null;
  /** every row, newest first, retired ones included */
  history: ModelRecord[];
}

/** A part's current model and history; throws UnknownModelPartError for an unknown part. */
export async function showModel(db: Db, partId: string): Promise<ModelDetail> {
  const { specs: _specs, ...part } = await partOf(db, partId);
  const rows = (
    await db.db.selectFrom('part_models').selectAll().where('part_id', '=', partId).orderBy('id', 'desc').execute()
  ).map(toRecord);
  rows.forEach((r, i) => (r.version = rows.length - i));
  return { part, current: rows.find((r) => r.retiredAt === null) ?? null, history: rows };
}

/**
 * Retires every row of the part: it renders with its procedural model again (history is kept).
 * Returns the rows retired; throws UnknownModelPartError, or NoModelError when it has no model.
 */
export async function removeModel(db: Db, partId: string): Promise<ModelRecord[]> {
  await partOf(db, partId);
  const rows = await db.db
    .updateTable('part_models')
    .set({ retired_at: sql<Date>`now()` })
    .where('part_id', '=', partId)
    .where('retired_at', 'is', null)
    .returningAll()
    .execute();
  if (rows.length === 0) throw new NoModelError(partId);
  return rows.map(toRecord).sort((a, b) => Number(b.id) - Number(a.id));
}

/**
 * Picks the row `to` names among the part's rows (oldest first): a version number as `models
 * show` prints it, or a sha256 prefix (4 hex digits at least; the newest row with those bytes).
 */
function rollbackTarget<R extends { id: string; sha256: string }>(rows: R[], partId: string, to: string): R {
  const v = to.trim().toLowerCase();
  if (/^v?\d+$/.test(v)) {
    const n = Number(v.replace(/^v/, ''));
    const row = rows[n - 1];
    if (!row)
      throw new RollbackTargetError(
        'unknown_version',
        `part ${partId} has versions 1 to ${rows.length}, not ${to}: see render-farm models show ${partId}`,
      );
    return row;
  }
  if (!/^[0-9a-f]{4,64}$/.test(v))
    throw new RollbackTargetError(
      'unknown_version',
      `--to takes a version number (models show's VERSION) or a sha256 prefix of 4+ hex digits, not "${to}"`,
    );
  const hits = rows.filter((r) => r.sha256.startsWith(v));
  if (!hits.length)
    throw new RollbackTargetError(
      'unknown_version',
      `no version of part ${partId} has a sha256 starting ${v}: see render-farm models show ${partId}`,
    );
  if (new Set(hits.map((r) => r.sha256)).size > 1)
    throw new RollbackTargetError(
      'unknown_version',
      `sha256 prefix ${v} matches ${hits.length} versions of part ${partId}: give more digits or the version number`,
    );
  return hits[hits.length - 1]!;
}

/**
 * Retires the part's current model, so the one before it is current again; with `to` (a
 * version number or a sha256 prefix), retires every version newer than that one. Returns the
 * model that was current (`retired`), every row retired, and the current one.
 * Throws UnknownModelPartError, NoModelError (no model), NoPreviousModelError (only one),
 * RollbackTargetError (`to` names nothing, a retired version, or the current one).
 */
export async function rollbackModel(
  db: Db,
  partId: string,
  to?: string,
): Promise<{ retired: ModelRecord; retiredAll: ModelRecord[]; current: ModelRecord }> {
  await partOf(db, partId);
  return db.db.transaction().execute(async (trx) => {
    // the rows locked: two rollbacks at once retire two versions, one after the other
    const all = await trx
      .selectFrom('part_models')
      .selectAll()
      .where('part_id', '=', partId)
      .orderBy('id', 'asc')
      .forUpdate()
      .execute();
    const live = all.filter((r) => r.retired_at === null);
    if (live.length === 0) throw new NoModelError(partId);
    const top = live[live.length - 1]!;
    let target;
    if (to === undefined) {
      if (live.length === 1) throw new NoPreviousModelError(partId);
      target = live[live.length - 2]!;
    } else {
      target = rollbackTarget(all, partId, to);
      const n = all.indexOf(target) + 1;
      if (target.id === top.id)
        throw new RollbackTargetError(
          'invalid_rollback_target',
          `version ${n} (${target.sha256.slice(0, 12)}) is already the current model of ${partId}`,
        );
      if (target.retired_at !== null || Number(target.id) > Number(top.id)) {
        // retired rows stay retired: going back to one is adding its file again, a new version
        throw new RollbackTargetError(
          'invalid_rollback_target',
          `version ${n} (${target.sha256.slice(0, 12)}) of ${partId} was retired (models rm or an earlier rollback): add its file again with models add`,
        );
      }
    }
    const retired = await trx
      .updateTable('part_models')
      .set({ retired_at: sql<Date>`now()` })
      .where('part_id', '=', partId)
      .where('retired_at', 'is', null)
      .where('id', '>', target.id)
      .returningAll()
      .execute();
    const records = retired.map(toRecord).sort((a, b) => Number(b.id) - Number(a.id));
    return { retired: records[0]!, retiredAll: records, current: toRecord(target) };
  });
}

/** The prepared GLB of `sha256`; throws ArtifactNotFoundError (404) when the store does not have it. */
export async function modelBytes(store: ArtifactStore, sha256: string): Promise<Uint8Array> {
  if (!MODEL_SHA256.test(sha256))
    throw new UserError('invalid_model_sha256', `"${sha256}" is not a model sha256 (64 lower-case hex digits)`);
  return new Uint8Array(await readAll(await store.read(modelArtifactKey(sha256))));
}
