/**
 * The `model` field of part listings (/available-parts, /parts, /part/:id): each part's current
 * model in brief, for a whole page of parts in one query.
 */
import type { Db } from '../db/database.js';

/** A part's current model in brief. */
export interface ModelSummary {
  sha256: string;
  triangles: number;
  /** when it became current: its row's created_at (a rollback makes an older row current again, with its own date) */
  updatedAt: Date;
}

/**
 * The current model (newest row not retired, as model-library.ts defines it) of each part in
 * `partIds` that has one; parts without a model are absent from the map.
 */
export async function currentModelSummaries(db: Db, partIds: readonly string[]): Promise<Map<string, ModelSummary>> {
  const unique = [...new Set(partIds)];
  if (!unique.length) return new Map();
  const rows = await db.db
    .selectFrom('part_models')
    .distinctOn('part_id')
    .select(['part_id', 'sha256', 'triangles', 'created_at'])
    .where('part_id', 'in', unique)
    .where('retired_at', 'is', null)
    .orderBy('part_id')
    .orderBy('id', 'desc')
    .execute();
  return new Map(rows.map((r) => [r.part_id, { sha256: r.sha256, triangles: r.triangles ?? 0, updatedAt: new Date(r.created_at) }]));
}
