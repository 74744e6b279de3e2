/** `pregen ls` and `pregen rm`: list the cache with staleness, and prune rows with their files. */
import type { Db } from '../db/database.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { deleteEntries, listEntries, type EntryFilter, type PregenEntry } from './cache-repository.js';
import { formatBytes } from './format.js';

/**
 * An entry as listed: stale when drawn by another renderer version than the current one, or
 * with other part models than its visible parts have now (`staleReasons` says which).
 */
export interface ListedEntry extends PregenEntry {
  stale: boolean;
  staleReasons: ('renderer' | 'models')[];
}

export async function listCache(db: Db, filter: EntryFilter, rendererVersion: string): Promise<ListedEntry[]> {
  return (await listEntries(db, filter)).map(({ modelsStale, ...e }) => {
    const staleReasons: ListedEntry['staleReasons'] = [];
    if (e.rendererVersion !== rendererVersion) staleReasons.push('renderer');
    if (modelsStale) staleReasons.push('models');
    return { ...e, stale: staleReasons.length > 0, staleReasons };
  });
}

/** A fixed-width table of entries for the terminal. */
export function cacheTable(entries: ListedEntry[]): string {
  const rows = entries.map((e) => [
    e.key.slice(0, 12),
    e.format,
    `${e.width}x${e.height}`,
    e.profile,
    formatBytes(e.bytes),
    e.stale ? `stale (${e.staleReasons.join(', ')})` : 'current',
    e.source || '-',
    e.createdAt.toISOString().replace(/\.\d+Z$/, 'Z'),
  ]);
  const head = ['key', 'format', 'size', 'profile', 'bytes', 'state', 'source', 'created'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return (
    [head, ...rows]
      .map((r) =>
        r
          .map((c, i) => c.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** Deletes the matching entries' rows, then their files; returns what was removed. */
export async function removeFromCache(db: Db, store: ArtifactStore, filter: EntryFilter): Promise<PregenEntry[]> {
  const matching = await listEntries(db, filter);
  // rows first: from then on the endpoint answers 404, and a missing file is never served
  const removed = await deleteEntries(
    db,
    matching.map((e) => e.key),
  );
  for (const e of removed) await store.delete(e.artifactKey);
  return removed;
}
