/**
 * Catalog data access for the API, the CLI and the renderer: parts, builds, demo seeding.
 * jsonb goes in as JSON.stringify strings and comes back parsed by pg.
 */
import { randomInt } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { BuildsTable } from '../db/schema.js';
import type { Db } from '../db/database.js';
import { NotFoundError, UserError } from '../errors.js';
import { DEMO_BUILDS, DEMO_PARTS } from './demo-catalog.js';
import { CATEGORIES, isCategory, type Category, type Part, type PartIdMap } from '../model/part.js';
import { countProblems } from '../model/parts-map.js';
import { interactiveStateSchema, type InteractiveState } from '../model/interactive-state.js';

/** What a part listing shows (the API adds the image URL from `image_key`). */
export interface PartSummaryRow {
  id: string;
  category: Category;
  name: string;
  image_key: string | null;
}

/** A part with its normalised specs and data version (no raw record). */
export interface PartRow extends PartSummaryRow {
  specs: Part['specs'];
  opendb_id: string | null;
  version: number;
}

/** A saved build as stored. */
export interface BuildRow {
  shareCode: string;
  name: string;
  description: string;
  parts: PartIdMap;
  interactiveState: InteractiveState | null;
  createdAt: Date;
}

/** Why a build cannot be created; `problems` names each offending value. */
export class CatalogValidationError extends UserError {
  constructor(
    public override readonly code: 'invalid_category' | 'invalid_parts' | 'unknown_part' | 'invalid_state' | 'invalid_share_code' | 'share_code_taken' | 'empty_parts',
    message: string,
    public readonly problems: string[] = [],
  ) {
    super(code, message, { details: problems.map((p) => ({ message: p })) });
    this.name = 'CatalogValidationError';
  }
}

const SHARE_CODE = /^[A-Za-z0-9_-]{3,64}$/;
// no 0/O, 1/I/L: codes are read aloud and typed from screenshots
const SHARE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A random readable share code like `B-7KQ2MZ4P`. */
export function generateShareCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += SHARE_ALPHABET[randomInt(SHARE_ALPHABET.length)];
  return `B-${code}`;
}

/** One page of a category, ordered by name then id so paging is stable. */
export async function listParts(
  db: Db,
  category: Category,
  page: { limit: number; skip: number },
): Promise<{ items: PartSummaryRow[]; total: number }> {
  return findParts(db, { category }, page);
}

/** Which parts findParts returns; without either, every part. */
export interface PartFilter {
  category?: Category;
  /** text in the name or the ID, any case */
  search?: string;
}

/** `%`, `_` and `\` match themselves in a search (PostgreSQL's LIKE escape is a backslash). */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of parts (`catalog parts`), by category, then name, then id, so paging is stable. */
export async function findParts(db: Db, filter: PartFilter, page: { limit: number; skip: number }): Promise<{ items: PartSummaryRow[]; total: number }> {
  let q = db.db.selectFrom('parts');
  if (filter.category) q = q.where('category', '=', filter.category);
  const search = filter.search?.trim();
  if (search) {
    const pattern = `%${likeEscaped(search)}%`;
    q = q.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('id', 'ilike', pattern)]));
  }
  const [items, count] = await Promise.all([
    q.select(['id', 'category', 'name', 'image_key']).orderBy('category').orderBy('name').orderBy('id').limit(page.limit).offset(page.skip).execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

/** Parts by ID, any category, in the order first asked; unknown IDs are left out. */
export async function getPartsByIds(db: Db, ids: readonly string[]): Promise<PartRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db.db
    .selectFrom('parts')
    .select(['id', 'category', 'name', 'image_key', 'specs', 'opendb_id', 'version'])
    .where('id', 'in', unique)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.flatMap((id) => byId.get(id) ?? []);
}

/** A `builds` row in the shape the rest of the code uses. */
function toBuildRow(row: Selectable<BuildsTable>): BuildRow {
  return {
    shareCode: row.share_code,
    name: row.name,
    description: row.description,
    parts: row.parts,
    interactiveState: row.interactive_state ?? null,
    createdAt: row.created_at,
  };
}

/** A build by share code (exact match), or null. */
export async function getBuild(db: Db, shareCode: string): Promise<BuildRow | null> {
  const row = await db.db.selectFrom('builds').selectAll().where('share_code', '=', shareCode).executeTakeFirst();
  return row ? toBuildRow(row) : null;
}

/** A saved build in a listing: what tells builds apart, without the part IDs. */
export interface BuildSummaryRow {
  shareCode: string;
  name: string;
  /** part IDs over all categories (an ID listed twice counts twice) */
  partCount: number;
  createdAt: Date;
}

/** Most builds one page returns. */
export const MAX_BUILDS_PAGE = 100;

/** One page of saved builds, newest first (share code breaks ties, so paging is stable). */
export async function listBuilds(db: Db, page: { limit: number; skip: number }): Promise<{ items: BuildSummaryRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.db
      .selectFrom('builds')
      .select(['share_code', 'name', 'parts', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('share_code')
      .limit(Math.min(page.limit, MAX_BUILDS_PAGE))
      .offset(page.skip)
      .execute(),
    db.db.selectFrom('builds').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const items = rows.map((r) => ({
    shareCode: r.share_code,
    name: r.name,
    partCount: Object.values(r.parts as Record<string, readonly string[]>).reduce((n, ids) => n + (ids?.length ?? 0), 0),
    createdAt: r.created_at,
  }));
  return { items, total: Number(count.n) };
}

/** Input of createBuild (unvalidated: it comes from the CLI or the API). */
export interface NewBuild {
  shareCode?: string;
  name: string;
  description?: string;
  parts: Record<string, unknown>;
  interactiveState?: unknown;
}

/** Checks categories, part IDs (exist, right category) and the state; returns the clean values. */
async function validateBuild(db: Db, input: NewBuild): Promise<{ parts: PartIdMap; state: InteractiveState | null }> {
  const badCategories = Object.keys(input.parts).filter((c) => !isCategory(c));
  if (badCategories.length) {
    throw new CatalogValidationError(
      'invalid_category',
      `unknown categor${badCategories.length > 1 ? 'ies' : 'y'} ${badCategories.join(', ')}: use ${CATEGORIES.join(', ')}`,
      badCategories,
    );
  }
  const parts: PartIdMap = {};
  for (const [category, ids] of Object.entries(input.parts) as [Category, unknown][]) {
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id === '')) {
      throw new CatalogValidationError('unknown_part', `${category} must be a list of part IDs`, [category]);
    }
    if (ids.length) parts[category] = ids as string[];
  }
  if (Object.keys(parts).length === 0) throw new CatalogValidationError('empty_parts', 'a build needs at least one part');
  // the same per-category limits as a render request: a saved build is rendered by its share code
  const counts = countProblems(parts);
  if (counts.length) throw new CatalogValidationError('invalid_parts', counts.map((c) => c.message).join('; '), counts.map((c) => c.message));

  let state: InteractiveState | null = null;
  if (input.interactiveState !== undefined && input.interactiveState !== null) {
    const parsed = interactiveStateSchema.safeParse(input.interactiveState);
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
      throw new CatalogValidationError('invalid_state', `invalid interactive state: ${details.join('; ')}`, details);
    }
    state = parsed.data;
  }

  const stateFanIds = (state?.fans ?? []).flatMap((f) => (f.partId ? [f.partId] : []));
  const wanted = [...Object.values(parts).flat(), ...stateFanIds];
  const found = new Map((await getPartsByIds(db, wanted)).map((p) => [p.id, p.category]));
  const problems: string[] = [];
  for (const [category, ids] of Object.entries(parts) as [Category, string[]][]) {
    for (const id of ids) {
      const actual = found.get(id);
      if (!actual) problems.push(`${id} (${category}): no such part`);
      else if (actual !== category) problems.push(`${id}: is a ${actual}, listed under ${category}`);
    }
  }
  for (const id of stateFanIds) {
    const actual = found.get(id);
    if (actual !== 'CaseFan') problems.push(`${id} (state fan): ${actual ? `is a ${actual}, not a CaseFan` : 'no such part'}`);
  }
  if (problems.length) {
    throw new CatalogValidationError('unknown_part', `unknown or misplaced part IDs: ${problems.join('; ')}`, problems);
  }
  return { parts, state };
}

/**
 * Validates and saves a build. A given share code must be free; without one a random code is
 * generated (retrying on the rare clash). Returns the stored build.
 */
export async function createBuild(db: Db, input: NewBuild): Promise<BuildRow> {
  if (!input.name || !input.name.trim()) throw new CatalogValidationError('empty_parts', 'a build needs a name');
  if (input.shareCode !== undefined && !SHARE_CODE.test(input.shareCode)) {
    throw new CatalogValidationError(
      'invalid_share_code',
      `share code "${input.shareCode}" must be 3 to 64 letters, digits, "-" or "_"`,
    );
  }
  const { parts, state } = await validateBuild(db, input);
  for (let attempt = 0; attempt < 5; attempt++) {
    const shareCode = input.shareCode ?? generateShareCode();
    const inserted = await db.db
      .insertInto('builds')
      .values({
        share_code: shareCode,
        name: input.name.trim(),
        description: input.description?.trim() ?? '',
        parts: JSON.stringify(parts),
        interactive_state: state ? JSON.stringify(state) : null,
      })
      .onConflict((oc) => oc.column('share_code').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return toBuildRow(inserted);
    if (input.shareCode !== undefined) {
      throw new CatalogValidationError('share_code_taken', `share code "${input.shareCode}" is already used by another build`);
    }
  }
  throw new Error('could not generate a free share code after 5 attempts');
}

/** Parts of a build resolved for rendering. */
export interface ResolvedParts {
  /** per category, in the listed order; an ID listed twice gives two entries */
  parts: Partial<Record<Category, Part[]>>;
  /** IDs not found, or found under another category (as `id`) */
  missing: string[];
  /** part ID -> data version (part of the render cache key) */
  versions: Record<string, number>;
  /** part ID -> sha256 of its current model (part of the render cache key), for the parts that have one */
  models: Record<string, string>;
}

/** Parts that are not in the catalog: 404 `part_not_found` naming them. */
export class UnknownPartsError extends NotFoundError {
  constructor(public readonly ids: string[]) {
    super('part_not_found', `unknown part ID${ids.length > 1 ? 's' : ''}: ${ids.join(', ')}`, {
      details: ids.map((id) => ({ field: 'parts', message: 'not found', id })),
    });
    this.name = 'UnknownPartsError';
  }
}

/** Resolves a category -> IDs map to full parts; unknown categories' IDs count as missing. */
export async function resolveBuildParts(db: Db, partIdMap: PartIdMap | Record<string, readonly string[]>): Promise<ResolvedParts> {
  const entries = Object.entries(partIdMap) as [string, readonly string[] | undefined][];
  const unique = [...new Set(entries.flatMap(([, ids]) => ids ?? []))];
  // one statement for the parts and their current models: the submit path counts round trips,
  // and the worker's key check must see parts and models as of one moment
  const rows = unique.length
    ? await db.db
        .selectFrom('parts as p')
        .leftJoin('current_part_models as cm', 'cm.part_id', 'p.id')
        .select(['p.id', 'p.category', 'p.name', 'p.specs', 'p.version', 'cm.sha256 as model'])
        .where('p.id', 'in', unique)
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const parts: Partial<Record<Category, Part[]>> = {};
  const missing: string[] = [];
  const versions: Record<string, number> = {};
  const models: Record<string, string> = {};
  for (const [category, ids] of entries) {
    for (const id of ids ?? []) {
      const row = byId.get(id);
      if (!row || !isCategory(category) || row.category !== category) {
        missing.push(id);
        continue;
      }
      (parts[category] ??= []).push({ id: row.id, category: row.category, name: row.name, specs: row.specs } as Part);
      versions[id] = row.version;
      if (row.model) models[id] = row.model;
    }
  }
  return { parts, missing: [...new Set(missing)], versions, models };
}

/** Part counts per category, split into demo (no opendb_id) and imported. */
export interface CatalogStats {
  categories: { category: Category; demo: number; imported: number; total: number }[];
  parts: number;
  builds: number;
}

/** Counts for `catalog stats` and health pages. */
export async function catalogStats(db: Db): Promise<CatalogStats> {
  const rows = await db.db
    .selectFrom('parts')
    .select([
      'category',
      sql<string>`count(*) filter (where opendb_id is null)`.as('demo'),
      sql<string>`count(*) filter (where opendb_id is not null)`.as('imported'),
    ])
    .groupBy('category')
    .execute();
  const builds = await db.db.selectFrom('builds').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const byCat = new Map(rows.map((r) => [r.category, r]));
  const categories = CATEGORIES.map((category) => {
    const r = byCat.get(category);
    const demo = Number(r?.demo ?? 0);
    const imported = Number(r?.imported ?? 0);
    return { category, demo, imported, total: demo + imported };
  });
  return { categories, parts: categories.reduce((n, c) => n + c.total, 0), builds: Number(builds.n) };
}

/** Serialises seeding across processes (any constant; pg_advisory_xact_lock takes a bigint). */
const SEED_LOCK = 72_460_190_021n;

/**
 * Seeds the demo parts and builds into an empty catalog (no parts and no builds). A catalog
 * holding anything is left alone, so a deleted demo build stays deleted and an imported
 * catalog gets no demo parts. Safe on every start and from several processes at once (the
 * check and the inserts run under one transaction-scoped advisory lock).
 * Returns how many rows this call inserted.
 */
export async function seedDemoCatalog(db: Db): Promise<{ parts: number; builds: number }> {
  return db.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${SEED_LOCK.toString()}::bigint)`.execute(trx);
    const used = await sql<{ used: boolean }>`SELECT EXISTS (SELECT 1 FROM parts) OR EXISTS (SELECT 1 FROM builds) AS used`.execute(trx);
    if (used.rows[0]?.used) return { parts: 0, builds: 0 };
    const parts = await trx
      .insertInto('parts')
      .values(
        DEMO_PARTS.map((p) => ({
          id: p.id,
          category: p.category,
          name: p.name,
          specs: JSON.stringify(p.specs),
          raw: null,
          opendb_id: null,
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute();
    const builds = await trx
      .insertInto('builds')
      .values(
        DEMO_BUILDS.map((b) => ({
          share_code: b.shareCode,
          name: b.name,
          description: b.description,
          parts: JSON.stringify(b.parts),
          interactive_state: b.interactiveState ? JSON.stringify(b.interactiveState) : null,
        })),
      )
      .onConflict((oc) => oc.column('share_code').doNothing())
      .returning('share_code')
      .execute();
    return { parts: parts.length, builds: builds.length };
  });
}
