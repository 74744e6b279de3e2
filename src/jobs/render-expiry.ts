/**
 * Retention's transitions of render rows (src/jobs/artifact-retention.ts): completed ->
 * expired, then its files forgotten (the state diagram: render-lifecycle.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { RenderArtifacts } from './render-row.js';

type Q = Kysely<Database>;

/** What an expired render's job object says (status error): why, and what to do. */
export const EXPIRED_MESSAGE =
  "expired: this render's files were removed by storage retention after going unrequested; submit the same request again to render it again";

/**
 * Completed renders lose their files: `error` with expired_at set (no webhook: sql/0013) and
 * the keys kept in `artifacts` until the files are deleted (expiredFiles, clearExpiredFiles).
 * The guard is checked again here, on each row as it is now: a render requested or finished
 * within `keepRecentMinutes` meanwhile stays. Returns the ids expired.
 */
export async function expireRenders(db: Q, ids: readonly string[], keepRecentMinutes: number): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await sql<{ id: string }>`
    UPDATE renders SET status = 'error', error = ${EXPIRED_MESSAGE}, progress = 0, expired_at = now(), updated_at = now()
     WHERE id = ANY(${[...ids]}::uuid[]) AND status = 'completed'
       AND last_requested_at < now() - make_interval(secs => ${keepRecentMinutes * 60})
       AND (finished_at IS NULL OR finished_at < now() - make_interval(secs => ${keepRecentMinutes * 60}))
    RETURNING id`.execute(db);
  return rows.rows.map((r) => r.id);
}

/**
 * Expired renders whose files are still to be deleted, locked (run in a transaction, then
 * clearExpiredFiles): a submit that reopens one of them waits until its files are gone, so the
 * new render's files, written under the same keys, are never deleted.
 */
export async function expiredFiles(
  trx: Q,
  limit: number,
): Promise<{ id: string; artifacts: RenderArtifacts; bytes: number }[]> {
  const rows = await sql<{ id: string; artifacts: RenderArtifacts; artifact_bytes: string | null }>`
    SELECT id, artifacts, artifact_bytes FROM renders
     WHERE status = 'error' AND expired_at IS NOT NULL AND artifacts IS NOT NULL
     LIMIT ${limit} FOR UPDATE SKIP LOCKED`.execute(trx);
  return rows.rows.map((r) => ({ id: r.id, artifacts: r.artifacts, bytes: Number(r.artifact_bytes ?? 0) }));
}

/** The expired renders' files were deleted: no keys, no bytes (the store total drops by trigger). */
export async function clearExpiredFiles(trx: Q, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await trx
    .updateTable('renders')
    .set({ artifacts: null, artifact_bytes: null })
    .where('id', 'in', [...ids])
    .where('status', '=', 'error')
    .execute();
}
