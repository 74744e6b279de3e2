/**
 * The names a render's files and its chunks' pieces are stored under, for the three render
 * tasks (tasks/render.ts, tasks/render-chunk.ts, tasks/render-assemble.ts): one owner, so a
 * whole render and an assembled one store the same keys, and what a chunk stores is what the
 * assemble step and the sweeper look for. The key layouts themselves: storage/artifact-key.ts.
 */
import { chunkArtifactKey, RENDER_FILE_NAMES, renderArtifactKey } from '../storage/artifact-key.js';
import type { ChunkPieces } from './chunk-lifecycle.js';
import type { RenderArtifacts, RenderRow } from './render-row.js';

/** The key a render's file of `kind` is stored under; the screenshot keeps its format's extension (`.webp`, `.png`). */
export function renderFileKey(cacheKey: string, kind: keyof RenderArtifacts, screenshotExt = '.webp'): string {
  return renderArtifactKey(
    cacheKey,
    kind === 'screenshot' ? `${RENDER_FILE_NAMES.screenshot}${screenshotExt}` : RENDER_FILE_NAMES[kind],
  );
}

/** File names of a chunk's pieces (what engine.renderChunk writes). */
export const CHUNK_PIECE_FILES = { h264: 'video.h264', rows: 'rows.png', screenshot: 'screenshot.webp' } as const;

/** Every key a chunk of this render may store a piece under. */
export function chunkPieceKeys(
  render: Pick<RenderRow, 'cache_key' | 'format'>,
  plan: string,
  idx: number,
): ChunkPieces {
  const key = (file: string) => chunkArtifactKey(render.cache_key, plan, idx, file);
  return render.format === 'video'
    ? { h264: key(CHUNK_PIECE_FILES.h264), screenshot: key(CHUNK_PIECE_FILES.screenshot) }
    : { rows: key(CHUNK_PIECE_FILES.rows), screenshot: key(CHUNK_PIECE_FILES.screenshot) };
}
