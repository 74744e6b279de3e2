/**
 * Moves a render through the states a worker writes (same columns, same statements' effect),
 * for tests of what reacts to them (job events, webhooks) without spending minutes rendering.
 * Real renders are covered by test/jobs/farm-e2e.test.ts.
 */
import type { Db } from '../../src/db/database.js';

export async function renderIdOfJob(db: Db, jobId: string): Promise<string> {
  const row = await db.db.selectFrom('jobs').select('render_id').where('id', '=', jobId).executeTakeFirstOrThrow();
  return row.render_id;
}

export async function markProcessing(db: Db, renderId: string): Promise<void> {
  await db.db
    .updateTable('renders')
    .set({ status: 'processing', progress: 0, started_at: new Date(), updated_at: new Date() })
    .where('id', '=', renderId)
    .execute();
}

export async function markProgress(db: Db, renderId: string, progress: number): Promise<void> {
  await db.db.updateTable('renders').set({ progress, updated_at: new Date() }).where('id', '=', renderId).execute();
}

export async function markCompleted(db: Db, renderId: string): Promise<void> {
  const key = (f: string) => `renders/ab/${'ab'.padEnd(64, '0')}/${f}`;
  await db.db
    .updateTable('renders')
    .set({
      status: 'completed',
      progress: 1,
      artifacts: JSON.stringify({ sprite: key('sprite.webp'), screenshot: key('hero.webp') }),
      sprite_layout: JSON.stringify({ columns: 12, rows: 6, frames: 72, frame_width: 256, frame_height: 256 }),
      finished_at: new Date(),
      updated_at: new Date(),
    })
    .where('id', '=', renderId)
    .execute();
}

export async function markError(db: Db, renderId: string, error: string): Promise<void> {
  await db.db
    .updateTable('renders')
    .set({ status: 'error', error, finished_at: new Date(), updated_at: new Date() })
    .where('id', '=', renderId)
    .execute();
}
