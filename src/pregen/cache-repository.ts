/**
 * The `pregenerated` table: one row per combination key, pointing at a stored artifact.
 * Rows are written only after their artifact is stored, so a row never points at partial bytes.
 */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { PregeneratedTable } from '../db/schema.js';
import type { PartIdMap } from '../model/part.js';
import type { Format } from '../model/render-defaults.js';

/** A cache entry as the code reads it. */
export interface PregenEntry {
  key: string;
  format: Format;
  width: number;
  height: number;
  profile: string;
  options: Record<string, unknown>;
  parts: PartIdMap;
  visible: Record<string, unknown>;
  artifactKey: string;
  contentType: string;
  bytes: number;
  rendererVersion: string;
  renderMs: number | null;
  framesPerSecond: number | null;
  source: string;
  createdAt: Date;
  /** part ID -> model sha256 of the visible parts drawn with a model (`visible.models`; {} before part models) */
  models: Record<string, string>;
}

/** What saveEntry needs (createdAt is set by the database; models are part of `visible`). */
export type NewPregenEntry = Omit<PregenEntry, 'createdAt' | 'models'>;

/** Content type per format. */
export const CONTENT_TYPE_OF: Record<Format, string> = { video: 'video/mp4', sprite: 'image/webp' };

/** The models an entry was drawn with: `visible.models`, absent on entries made without any. */
function modelsOf(visible: Record<string, unknown>): Record<string, string> {
  const m = visible.models;
  return m && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, string>) : {};
}

function toEntry(r: Selectable<PregeneratedTable>): PregenEntry {
  return {
    key: r.combination_key,
    format: r.format,
    width: r.width,
    height: r.height,
    profile: r.profile,
    options: r.options,
    parts: r.parts,
    visible: r.visible,
    artifactKey: r.artifact_key,
    contentType: r.content_type,
    bytes: Number(r.bytes),
    rendererVersion: r.renderer_version,
    renderMs: r.render_ms,
    framesPerSecond: r.frames_per_second,
    source: r.source,
    createdAt: r.created_at,
    models: modelsOf(r.visible),
  };
}

/** The entry of a combination key, or null. */
export async function findEntry(db: Db, key: string): Promise<PregenEntry | null> {
  const row = await db.db.selectFrom('pregenerated').selectAll().where('combination_key', '=', key).executeTakeFirst();
  return row ? toEntry(row) : null;
}

/** What planning needs of an existing entry: who drew it, with which part models. */
export interface ExistingEntry {
  rendererVersion: string;
  models: Record<string, string>;
}

/** Renderer version and models per key, for the keys that have an entry (planning skips those). */
export async function existingKeys(db: Db, keys: readonly string[]): Promise<Map<string, ExistingEntry>> {
  const out = new Map<string, ExistingEntry>();
  const unique = [...new Set(keys)];
  // chunks keep the IN list (and its parameters) bounded for big matrices
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await db.db
      .selectFrom('pregenerated')
      .select(['combination_key', 'renderer_version', 'visible'])
      .where('combination_key', 'in', unique.slice(i, i + 1000))
      .execute();
    for (const r of rows)
      out.set(r.combination_key, { rendererVersion: r.renderer_version, models: modelsOf(r.visible) });
  }
  return out;
}

/** Inserts an entry, or replaces it (a stale entry re-rendered); returns the previous artifact key, if any. */
export async function saveEntry(db: Db, e: NewPregenEntry): Promise<string | null> {
  const values = {
    combination_key: e.key,
    format: e.format,
    width: e.width,
    height: e.height,
    profile: e.profile,
    options: JSON.stringify(e.options),
    parts: JSON.stringify(e.parts),
    visible: JSON.stringify(e.visible),
    artifact_key: e.artifactKey,
    content_type: e.contentType,
    bytes: e.bytes,
    renderer_version: e.rendererVersion,
    render_ms: e.renderMs,
    frames_per_second: e.framesPerSecond,
    source: e.source,
  };
  return db.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('pregenerated')
      .select('artifact_key')
      .where('combination_key', '=', e.key)
      .forUpdate()
      .executeTakeFirst();
    await trx
      .insertInto('pregenerated')
      .values(values)
      .onConflict((oc) => oc.column('combination_key').doUpdateSet({ ...values, created_at: sql<Date>`now()` }))
      .execute();
    return before && before.artifact_key !== e.artifactKey ? before.artifact_key : null;
  });
}

/** Filters of `pregen ls` and `pregen rm`. */
export interface EntryFilter {
  format?: Format;
  profile?: string;
  /** keys starting with any of these (hex prefixes) */
  keyPrefixes?: string[];
  /** only stale entries: drawn by another renderer version than this one, or with other part models than the parts have now */
  staleAgainst?: string;
  /** only entries whose source is this (e.g. `build:DEMO-GLASS`) */
  source?: string;
  limit?: number;
}

/**
 * True when the models an entry was drawn with (`visible.models`) are not the current models of
 * its visible parts (sql/0010's current_part_models view): a model was added,
 * replaced, rolled back or removed since. The combination key leaves models out, like the
 * renderer version, so such an entry stays servable but stale until `pregen --stale` redraws it.
 */
const modelsStale = sql<boolean>`(COALESCE(pregenerated.visible -> 'models', '{}'::jsonb) IS DISTINCT FROM (
  SELECT COALESCE(jsonb_object_agg(cm.part_id, cm.sha256), '{}'::jsonb)
  FROM current_part_models cm
  WHERE cm.part_id IN (SELECT jsonb_array_elements_text(v.ids) FROM jsonb_each(pregenerated.visible -> 'parts') AS v(cat, ids))
))`;

function filtered(db: Db, f: EntryFilter) {
  let q = db.db.selectFrom('pregenerated').selectAll().select(modelsStale.as('models_stale'));
  if (f.format) q = q.where('format', '=', f.format);
  if (f.profile) q = q.where('profile', '=', f.profile);
  if (f.source) q = q.where('source', '=', f.source);
  if (f.staleAgainst) {
    const version = f.staleAgainst;
    q = q.where((eb) => eb.or([eb('renderer_version', '<>', version), modelsStale]));
  }
  if (f.keyPrefixes?.length) {
    const prefixes = f.keyPrefixes.map((p) => p.toLowerCase().replace(/[^0-9a-f]/g, ''));
    q = q.where((eb) => eb.or(prefixes.map((p) => eb('combination_key', 'like', `${p}%`))));
  }
  return q;
}

/** An entry with whether its part models are still the parts' current ones. */
export interface CheckedEntry extends PregenEntry {
  /** a visible part's model changed since the entry was drawn */
  modelsStale: boolean;
}

/** Entries, newest first. */
export async function listEntries(db: Db, f: EntryFilter = {}): Promise<CheckedEntry[]> {
  let q = filtered(db, f).orderBy('created_at', 'desc').orderBy('combination_key');
  if (f.limit !== undefined) q = q.limit(f.limit);
  return (await q.execute()).map((r) => ({ ...toEntry(r), modelsStale: r.models_stale }));
}

/** Count and total bytes of all entries, for the `pregen ls` footer. */
export async function cacheTotals(db: Db): Promise<{ entries: number; bytes: number }> {
  const r = await db.db
    .selectFrom('pregenerated')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.coalesce(eb.fn.sum<string>('bytes'), eb.lit(0)).as('b')])
    .executeTakeFirstOrThrow();
  return { entries: Number(r.n), bytes: Number(r.b) };
}

/** Deletes the rows of `keys`; returns the deleted entries (the caller removes their artifacts). */
export async function deleteEntries(db: Db, keys: readonly string[]): Promise<PregenEntry[]> {
  if (keys.length === 0) return [];
  const rows = await db.db
    .deleteFrom('pregenerated')
    .where('combination_key', 'in', [...keys])
    .returningAll()
    .execute();
  return rows.map(toEntry);
}
