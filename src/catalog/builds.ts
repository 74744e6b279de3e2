/**
 * Saved builds: share codes, lookup, listing and creation (validated against the catalog's parts).
 * jsonb goes in as JSON.stringify strings and comes back parsed by pg.
 */
import { randomInt } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { BuildsTable } from '../db/schema.js';
import type { Db } from '../db/database.js';
import { NotFoundError, UserError } from '../errors.js';
import { CATEGORIES, isCategory, type Category, type PartIdMap } from '../model/part.js';
import { countProblems } from '../model/parts-map.js';
import { interactiveStateSchema, type InteractiveState } from '../model/interactive-state.js';
import { getPartsByIds } from './parts.js';

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
    public override readonly code:
      | 'invalid_category'
      | 'invalid_parts'
      | 'unknown_part'
      | 'invalid_state'
      | 'invalid_share_code'
      | 'share_code_taken'
      | 'empty_parts',
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

/** No saved build has this share code (or these, `others`: a lookup of several names every unknown one): 404 `build_not_found`. */
export class BuildNotFoundError extends NotFoundError {
  constructor(
    public readonly shareCode: string,
    others: readonly string[] = [],
  ) {
    super(
      'build_not_found',
      others.length
        ? `no builds with share codes ${[shareCode, ...others].map((c) => JSON.stringify(c)).join(', ')}`
        : `no build with share code ${JSON.stringify(shareCode)}`,
    );
    this.name = 'BuildNotFoundError';
  }
}

/** What a share code renders: the saved build's parts and state (the API, the console and `render` each ask this). */
export interface SharedBuild {
  shareCode: string;
  parts: PartIdMap;
  state: InteractiveState | null;
}

/** The build a share code names, to render; throws BuildNotFoundError when there is none. */
export async function buildForShareCode(db: Db, shareCode: string): Promise<SharedBuild> {
  const build = await getBuild(db, shareCode);
  if (!build) throw new BuildNotFoundError(shareCode);
  return { shareCode: build.shareCode, parts: build.parts, state: build.interactiveState };
}

/**
 * The builds several share codes name, in the order given. All are looked up before any is
 * returned, so one unknown code fails the lot before anything renders (the error names each).
 */
export async function buildsForShareCodes(db: Db, shareCodes: readonly string[]): Promise<SharedBuild[]> {
  const found = await Promise.all(shareCodes.map((code) => getBuild(db, code)));
  const missing = shareCodes.filter((_, i) => !found[i]);
  if (missing.length) throw new BuildNotFoundError(missing[0]!, missing.slice(1));
  return found.map((b) => ({ shareCode: b!.shareCode, parts: b!.parts, state: b!.interactiveState }));
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
export async function listBuilds(
  db: Db,
  page: { limit: number; skip: number },
): Promise<{ items: BuildSummaryRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.db
      .selectFrom('builds')
      .select(['share_code', 'name', 'parts', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('share_code')
      .limit(Math.min(page.limit, MAX_BUILDS_PAGE))
      .offset(page.skip)
      .execute(),
    db.db
      .selectFrom('builds')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const items = rows.map((r) => ({
    shareCode: r.share_code,
    name: r.name,
    partCount: Object.values(r.parts as Record<string, readonly string[]>).reduce(
      (n, ids) => n + (ids?.length ?? 0),
      0,
    ),
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
  if (Object.keys(parts).length === 0)
    throw new CatalogValidationError('empty_parts', 'a build needs at least one part');
  // the same per-category limits as a render request: a saved build is rendered by its share code
  const counts = countProblems(parts);
  if (counts.length)
    throw new CatalogValidationError(
      'invalid_parts',
      counts.map((c) => c.message).join('; '),
      counts.map((c) => c.message),
    );

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
    if (actual !== 'CaseFan')
      problems.push(`${id} (state fan): ${actual ? `is a ${actual}, not a CaseFan` : 'no such part'}`);
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
      throw new CatalogValidationError(
        'share_code_taken',
        `share code "${input.shareCode}" is already used by another build`,
      );
    }
  }
  throw new Error('could not generate a free share code after 5 attempts');
}
