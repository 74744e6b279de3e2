/**
 * The `pregenerated` table: one row per combination key, pointing at a stored artifact.
 * Rows are written only after their artifact is stored, so a row never points at partial bytes.
 */
import type { Selectable } from 'kysely';
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
}

/** What saveEntry needs (createdAt is set by the database). */
export type NewPregenEntry = Omit<PregenEntry, 'createdAt'>;

/** Content type per format. */
export const CONTENT_TYPE_OF: Record<Format, string> = { video: 'video/mp4', sprite: 'image/webp' };

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
  };
}

/** The entry of a combination key, or null. */
export async function findEntry(db: Db, key: string): Promise<PregenEntry | null> {
  const row = await db.db.selectFrom('pregenerated').selectAll().where('combination_key', '=', key).executeTakeFirst();
  return row ? toEntry(row) : null;
}

/** Renderer version per key, for the keys that have an entry (planning skips those). */
export async function existingKeys(db: Db, keys: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unique = [...new Set(keys)];
  // chunks keep the IN list (and its parameters) bounded for big matrices
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await db.db
      .selectFrom('pregenerated')
      .select(['combination_key', 'renderer_version'])
      .where('combination_key', 'in', unique.slice(i, i + 1000))
      .execute();
    for (const r of rows) out.set(r.combination_key, r.renderer_version);
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
    const before = await trx.selectFrom('pregenerated').select('artifact_key').where('combination_key', '=', e.key).forUpdate().executeTakeFirst();
    await trx
      .insertInto('pregenerated')
      .values(values)
      .onConflict((oc) => oc.column('combination_key').doUpdateSet({ ...values, created_at: new Date() }))
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
  /** only entries drawn by another renderer version than this one */
  staleAgainst?: string;
  /** only entries whose source is this (e.g. `build:DEMO-GLASS`) */
  source?: string;
  limit?: number;
}

function filtered(db: Db, f: EntryFilter) {
  let q = db.db.selectFrom('pregenerated').selectAll();
  if (f.format) q = q.where('format', '=', f.format);
  if (f.profile) q = q.where('profile', '=', f.profile);
  if (f.source) q = q.where('source', '=', f.source);
  if (f.staleAgainst) q = q.where('renderer_version', '<>', f.staleAgainst);
  if (f.keyPrefixes?.length) {
    const prefixes = f.keyPrefixes.map((p) => p.toLowerCase().replace(/[^0-9a-f]/g, ''));
    q = q.where((eb) => eb.or(prefixes.map((p) => eb('combination_key', 'like', `${p}%`))));
  }
  return q;
}

/** Entries, newest first. */
export async function listEntries(db: Db, f: EntryFilter = {}): Promise<PregenEntry[]> {
  let q = filtered(db, f).orderBy('created_at', 'desc').orderBy('combination_key');
  if (f.limit !== undefined) q = q.limit(f.limit);
  return (await q.execute()).map(toEntry);
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
  const rows = await db.db.deleteFrom('pregenerated').where('combination_key', 'in', [...keys]).returningAll().execute();
  return rows.map(toEntry);
}
