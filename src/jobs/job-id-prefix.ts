/**
 * A job named by the start of its ID, as `top` and the console show IDs shortened (8 hex
 * digits): a full ID, or a prefix of at least 6 hex digits (hyphens optional). The prefix is
 * looked up as a range of the primary key, so it costs one index probe however many jobs there are.
 */
import type { Db } from '../db/database.js';
import { UserError } from '../errors.js';
import { isUuid } from '../model/uuid.js';

/** Fewer hex digits than this match too many jobs to be worth trying. */
export const MIN_JOB_ID_PREFIX = 6;

/** How many of an ambiguous prefix's jobs the error names. */
const SHOWN_MATCHES = 10;

/** A prefix that more than one job starts with: a usage error (exit 2) naming them. */
export class AmbiguousJobIdError extends UserError {
  constructor(
    readonly prefix: string,
    readonly matches: string[],
    more: boolean,
  ) {
    super(
      'ambiguous_job_id',
      `job ID prefix "${prefix}" matches ${more ? `more than ${matches.length}` : matches.length} jobs: ${matches.join(', ')}${more ? ', ...' : ''}; give more of the ID`,
      {
        details: matches.map((id) => ({ field: 'jobId', message: 'matches', id })),
      },
    );
    this.name = 'AmbiguousJobIdError';
  }
}

/** `3fa85f64-5717-...` from 32 hex digits. */
const asUuid = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * The full ID of the job `given` names: `given` itself when it is a full ID (whether or not
 * the job exists: callers report that as before), the one job a prefix matches, or null when
 * none does or `given` is neither. Throws AmbiguousJobIdError when several match, and a
 * UserError for a hex prefix shorter than MIN_JOB_ID_PREFIX.
 */
export async function resolveJobId(db: Db, given: string): Promise<string | null> {
  if (isUuid(given)) return given.toLowerCase();
  const hex = given.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]+$/.test(hex) || hex.length > 32) return null;
  if (hex.length < MIN_JOB_ID_PREFIX) {
    throw new UserError(
      'job_id_prefix_too_short',
      `job ID prefix "${given}" is too short: give at least ${MIN_JOB_ID_PREFIX} hex digits of the ID`,
    );
  }
  const rows = await db.db
    .selectFrom('jobs')
    .select('id')
    .where('id', '>=', asUuid(hex.padEnd(32, '0')))
    .where('id', '<=', asUuid(hex.padEnd(32, 'f')))
    .orderBy('id')
    .limit(SHOWN_MATCHES + 1)
    .execute();
  if (rows.length > 1)
    throw new AmbiguousJobIdError(
      given,
      rows.slice(0, SHOWN_MATCHES).map((r) => r.id),
      rows.length > SHOWN_MATCHES,
    );
  return rows[0]?.id ?? null;
}
