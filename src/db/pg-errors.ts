/** Classifies errors from PostgreSQL and the pg driver, so the API can answer them properly. */

interface PgLikeError {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
}

/**
 * Text PostgreSQL refuses to store: NUL in text (22021) or in jsonb (22P05). Request validation
 * refuses control characters first; this is the backstop that keeps such input a 400.
 */
export function isUnstorableTextError(err: unknown): boolean {
  const code = (err as PgLikeError | null)?.code;
  return code === '22021' || code === '22P05';
}
