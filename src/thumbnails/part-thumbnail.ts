/**
 * Part thumbnails: a product shot of one part on its own (the stage draws a build of exactly
 * one non-case part as that part alone, farm/src/stage-session.ts; a lone case is drawn with a
 * default board inside), transparent background, flat neutral light, 256x256 WebP. Stored at
 * `thumbnails/<partId>/<version>.webp` (storage/artifact-key.ts) and pointed at by
 * `parts.image_key`, which GET /assets/parts/:id serves (the SVG placeholder until then).
 * Rendered in batches (batch-thumbnails.ts: one page session, many parts) by `render-farm
 * pregen --thumbnails` (pregen/thumbnail-run.ts) and by the low-priority `thumbnail` worker
 * task (jobs/tasks/thumbnail.ts) that `catalog import` queues (jobs/thumbnail-jobs.ts).
 * renderThumbnail below is the one-part path (a full render), the reference the batch matches.
 */
import fs from 'node:fs/promises';
import { sql } from 'kysely';
import type { PartRow } from '../catalog/parts.js';
import type { Category, Part } from '../model/part.js';
import type { Db } from '../db/database.js';
import type { StageBuild } from '../model/stage-contract.js';
import type { RenderEngine } from '../render/engine.js';
import { resolveRenderOptions, type ResolvedRenderOptions } from '../model/render-options.js';
import { THUMBNAIL_KEY_PREFIX, THUMBNAIL_KEY_SUFFIX, thumbnailKey } from '../storage/artifact-key.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { makeTempDir } from '../temp-dirs.js';

export const THUMBNAIL_SIZE = 256;

/** SQL: the key a `parts` row's current thumbnail has (thumbnailKey of its id and version). */
export const CURRENT_THUMBNAIL_KEY = sql<string>`${sql.lit(THUMBNAIL_KEY_PREFIX)} || id || '/' || version || ${sql.lit(THUMBNAIL_KEY_SUFFIX)}`;

/** The options of every thumbnail: small, flat light, no grid or floor effects. */
export function thumbnailOptions(): ResolvedRenderOptions {
  return resolveRenderOptions({
    format: 'video',
    width: THUMBNAIL_SIZE,
    height: THUMBNAIL_SIZE,
    profile: 'flat',
    showGrid: false,
    showBackground: false,
  });
}

/** The stage input of a thumbnail: the part alone. */
export function thumbnailBuild(part: PartRow): StageBuild {
  const lone: Part = { id: part.id, category: part.category, name: part.name, specs: part.specs } as Part;
  return { parts: { [part.category]: [lone] } as Partial<Record<Category, Part[]>>, state: null };
}

/** What renderThumbnail did. */
export interface ThumbnailResult {
  partId: string;
  key: string;
  bytes: number;
  ms: number;
  /** false when the part changed (new version) while rendering: the image was not attached */
  attached: boolean;
}

/** Renders, stores and attaches the thumbnail of `part` on its own (one full render; many parts: batch-thumbnails.ts). */
export async function renderThumbnail(
  deps: { db: Db; store: ArtifactStore; engine: RenderEngine },
  part: PartRow,
  signal?: AbortSignal,
): Promise<ThumbnailResult> {
  const started = performance.now();
  const tmp = await makeTempDir('thumb');
  try {
    const result = await deps.engine.render({
      build: thumbnailBuild(part),
      options: thumbnailOptions(),
      outDir: tmp,
      outputs: { screenshot: 'webp' },
      transparent: true,
      signal,
    });
    const file = result.files.find((f) => f.kind === 'screenshot');
    if (!file) throw new Error('the renderer wrote no still');
    const key = thumbnailKey(part.id, part.version);
    const stored = await deps.store.putFile(key, file.path, 'image/webp');
    // attach only if the part still has the version drawn (a re-import may have changed it)
    const updated = await deps.db.db
      .updateTable('parts')
      .set({ image_key: key })
      .where('id', '=', part.id)
      .where('version', '=', part.version)
      .executeTakeFirst();
    return {
      partId: part.id,
      key,
      bytes: stored.size,
      ms: Math.round(performance.now() - started),
      attached: Number(updated.numUpdatedRows) > 0,
    };
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** Which parts need a thumbnail: those without one for their current version (all with force). */
export async function partsNeedingThumbnails(
  db: Db,
  opts: { categories?: readonly Category[]; ids?: readonly string[]; force?: boolean } = {},
): Promise<PartRow[]> {
  let q = db.db.selectFrom('parts').select(['id', 'category', 'name', 'image_key', 'specs', 'opendb_id', 'version']);
  if (opts.categories?.length) q = q.where('category', 'in', [...opts.categories]);
  if (opts.ids?.length) q = q.where('id', 'in', [...opts.ids]);
  if (!opts.force) q = q.where(sql<boolean>`image_key IS DISTINCT FROM ${CURRENT_THUMBNAIL_KEY}`);
  return await q.orderBy('category').orderBy('name').orderBy('id').execute();
}
