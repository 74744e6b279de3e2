/**
 * Thumbnails of many parts in one page session (render/batch-stills.ts): the page renders part
 * after part while Node encodes the previous PNGs to WebP and stores them; parts are attached
 * (`parts.image_key`) by one UPDATE per ATTACH_EVERY parts instead of one per part. The pixels
 * and the WebP bytes are those of renderThumbnail (same stage input, options, capture and
 * encoder settings; test/thumbnails/batch-thumbnails.test.ts compares them).
 * A part that fails is reported and skipped; the others complete.
 */
import { sql } from 'kysely';
import type { PartRow } from '../catalog/parts.js';
import type { Db } from '../db/database.js';
import { encodeScreenshot } from '../encode/screenshot.js';
import { renderStillsBatch } from '../render/batch-stills.js';
import type { RenderEngine } from '../render/engine.js';
import { thumbnailKey } from '../storage/artifact-key.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { thumbnailBuild, thumbnailOptions, type ThumbnailResult } from './part-thumbnail.js';

/** Parts attached per UPDATE: few round trips, and results still reported while a batch runs. */
const ATTACH_EVERY = 25;

export interface ThumbnailFailure {
  partId: string;
  error: string;
}

export interface ThumbnailBatchResult {
  rendered: ThumbnailResult[];
  failed: ThumbnailFailure[];
  ms: number;
}

export interface ThumbnailBatchOptions {
  signal?: AbortSignal;
  /** each part's outcome as soon as it is known (attached, or failed), in no particular order */
  onPart?: (outcome: { ok: true; result: ThumbnailResult } | { ok: false; failure: ThumbnailFailure }) => void;
}

/** Renders, stores and attaches the thumbnails of `parts`, one page session for all. */
export async function renderThumbnailBatch(
  deps: { db: Db; store: ArtifactStore; engine: RenderEngine },
  parts: readonly PartRow[],
  opts: ThumbnailBatchOptions = {},
): Promise<ThumbnailBatchResult> {
  const started = performance.now();
  const rendered: ThumbnailResult[] = [];
  const failed: ThumbnailFailure[] = [];
  const fail = (partId: string, error: string) => {
    const failure = { partId, error };
    failed.push(failure);
    opts.onPart?.({ ok: false, failure });
  };
  let stored: (ThumbnailResult & { version: number })[] = [];
  let attaching: Promise<void> = Promise.resolve();
  const attach = () => {
    const these = stored;
    stored = [];
    if (these.length === 0) return attaching;
    attaching = attaching.then(async () => {
      try {
        const rows = JSON.stringify(these.map((s) => ({ id: s.partId, version: s.version, key: s.key })));
        // only where the part still has the version drawn (a re-import may have changed it)
        const { rows: done } = await sql<{ id: string }>`
          UPDATE parts SET image_key = v.key
            FROM json_to_recordset(${rows}::json) AS v(id text, version int, key text)
           WHERE parts.id = v.id AND parts.version = v.version
          RETURNING parts.id`.execute(deps.db.db);
        const ids = new Set(done.map((r) => r.id));
        for (const { version: _v, ...r } of these) {
          const result = { ...r, attached: ids.has(r.partId) };
          rendered.push(result);
          opts.onPart?.({ ok: true, result });
        }
      } catch (err) {
        for (const r of these) fail(r.partId, `stored but not attached: ${(err as Error).message}`);
      }
    });
    return attaching;
  };

  let last = started;
  let failures: { index: number; error: string }[] = [];
  try {
    ({ failures } = await renderStillsBatch({
      pool: deps.engine.pool,
      builds: parts.map(thumbnailBuild),
      options: thumbnailOptions(),
      transparent: true,
      signal: opts.signal,
      onStill: async (i, png) => {
        const part = parts[i]!;
        // per part: from the previous still to this one stored (the page's time plus Node's)
        const since = last;
        last = performance.now();
        const webp = await encodeScreenshot(png, 'webp');
        const key = thumbnailKey(part.id, part.version);
        const saved = await deps.store.putBuffer(key, webp, 'image/webp');
        stored.push({
          partId: part.id,
          key,
          bytes: saved.size,
          ms: Math.round(performance.now() - since),
          attached: false,
          version: part.version,
        });
        if (stored.length >= ATTACH_EVERY) void attach();
      },
    }));
  } finally {
    // what was stored before a crash is attached all the same
    await attach();
  }
  // stills are encoded a few at a time, so they finish in any order
  const order = new Map(parts.map((p, i) => [p.id, i]));
  rendered.sort((a, b) => order.get(a.partId)! - order.get(b.partId)!);
  for (const f of failures) fail(parts[f.index]!.id, f.error);
  return { rendered, failed, ms: Math.round(performance.now() - started) };
}
