/**
 * The `render-assemble` task: joins a split render's chunk pieces into its files without
 * re-encoding (video: the H.264 segments concatenated and muxed by the same ffmpeg command a
 * whole render uses, then checked for frame count, duration and a seamless loop; sprite: the
 * rows into the same sheet writer), stores them under the render's cache key, completes the
 * render and deletes the pieces. Needs no browser: it runs on any worker, wherever the chunks
 * were rendered (the pieces are read from the shared artifact store).
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/database.js';
import { untilReachable } from '../../db/until-reachable.js';
import { assembleSprite, assembleVideo, verifyVideo } from '../../encode/assemble.js';
import type { Logger } from '../../log.js';
import { framesPerSecond, renderDuration, renderResults } from '../../metrics.js';
import type { ArtifactStore } from '../../storage/artifact-store.js';
import type { RenderEngine } from '../../render/engine.js';
import { makeTempDir } from '../../temp-dirs.js';
import { PermanentRenderError } from '../errors.js';
import type { Handler } from '../queue/task-map.js';
import { renderFileKey } from '../render-files.js';
import type { RenderArtifacts } from '../render-row.js';
import { runAttempt } from '../run-attempt.js';
import { staleOf, type Stale } from '../claim-fence.js';
import { chunksToAssemble, clearChunkPieces, type ChunkPieces, type ChunkRow } from '../chunk-lifecycle.js';
import { completeRender, failRender } from '../render-lifecycle.js';
import { parseStoredRequest } from './render-input.js';

export interface AssembleTaskContext {
  db: Db;
  store: ArtifactStore;
  engine: RenderEngine;
  log: Logger;
}

/** Deletes the chunks' pieces from the store and forgets them (the sweeper retries what fails here). */
export async function deleteChunkPieces(
  db: Db,
  store: ArtifactStore,
  renderId: string,
  chunks: readonly Pick<ChunkRow, 'plan' | 'idx' | 'pieces'>[],
): Promise<void> {
  for (const c of chunks) {
    const pieces = (c.pieces ?? {}) as ChunkPieces;
    for (const key of Object.values(pieces)) if (key) await store.delete(key);
    await clearChunkPieces(db.db, { render_id: renderId, plan: c.plan, idx: c.idx, superseded: false });
  }
}

export function renderAssembleTask(ctx: AssembleTaskContext): Handler<'render-assemble'> {
  return async ({ renderId, plan }, helpers) => {
    const { db } = ctx;
    let jlog = ctx.log.child({ renderId, assemble: plan.slice(0, 8) });
    const record = <T>(op: () => Promise<T>) =>
      untilReachable(op, {
        signal: helpers.abortSignal,
        onWait: (err) =>
          jlog.warn(
            { err: err.message },
            'database unavailable: keeping the assembled render and retrying its bookkeeping',
          ),
      });
    const input = await record(() => chunksToAssemble(db.db, renderId, plan));
    if (!input) {
      jlog.info('nothing to assemble: the render finished, failed, was split again or has chunks left');
      return;
    }
    const { render, chunks } = input;
    jlog = jlog.child({ cacheKey: render.cache_key.slice(0, 12), chunks: chunks.length });
    const started = performance.now();
    const tmp = await makeTempDir('assemble');
    // the render moved on meanwhile (retried, split anew, or assembled by another worker)
    const dropped = (s: Stale, err?: string) =>
      jlog.warn(
        { status: s.status, ...(err ? { err } : {}) },
        `render ${renderId} is no longer at plan ${plan.slice(0, 8)} (${s.status}); dropping my assembly`,
      );
    try {
      // no time bound of its own; a retry leaves the render processing (its chunks stay done)
      await runAttempt(
        {
          helpers,
          log: jlog,
          during: 'assembly',
          messages: { failed: 'assembly failed: the render failed', retry: 'assembly failed, will retry' },
          fail: async (reason) => {
            const stale = staleOf(await record(() => failRender(db.db, renderId, { plan }, reason)));
            if (!stale) renderResults.inc({ result: 'failed' });
            return stale;
          },
          dropped,
        },
        async () => {
          const o = parseStoredRequest(render.request).options;
          const fetch = async (key: string, name: string) => {
            const file = path.join(tmp, name);
            await pipeline(await ctx.store.read(key), createWriteStream(file));
            return file;
          };
          const pieces = chunks.map((c) => ({ chunk: c, pieces: (c.pieces ?? {}) as ChunkPieces }));
          const artifacts: RenderArtifacts = {};
          let bytes = 0;
          // under the keys a whole render of the same request stores (.webp: the chunks' still)
          const put = async (kind: keyof RenderArtifacts, file: string, mime: string) => {
            const key = renderFileKey(render.cache_key, kind);
            bytes += (await ctx.store.putFile(key, file, mime)).size;
            artifacts[kind] = key;
          };
          if (render.format === 'video') {
            const segments: string[] = [];
            for (const p of pieces) {
              if (!p.pieces.h264) throw new PermanentRenderError(`chunk ${p.chunk.idx + 1} has no video segment`);
              segments.push(await fetch(p.pieces.h264, `segment-${p.chunk.idx}.h264`));
            }
            const out = path.join(tmp, 'video.mp4');
            const size = { width: o.width - (o.width % 2), height: o.height - (o.height % 2) };
            await assembleVideo({ ffmpegPath: ctx.engine.tools.ffmpeg, segments, fps: o.fps, ...size, output: out });
            try {
              const check = await verifyVideo({
                ffprobePath: ctx.engine.tools.ffprobe,
                ffmpegPath: ctx.engine.tools.ffmpeg,
                file: out,
                frames: o.frames,
                fps: o.fps,
              });
              jlog.debug({ check }, 'assembled video checked');
            } catch (err) {
              // the pieces themselves are wrong: assembling them again gives the same file
              throw new PermanentRenderError(`the assembled video failed its check: ${(err as Error).message}`);
            }
            await put('video', out, 'video/mp4');
          } else {
            if (!o.sprite) throw new PermanentRenderError('a sprite render without a sprite layout');
            const rows: Array<{ firstRow: number; path: string }> = [];
            for (const p of pieces) {
              if (!p.pieces.rows) throw new PermanentRenderError(`chunk ${p.chunk.idx + 1} has no sprite rows`);
              rows.push({
                firstRow: Math.floor(p.chunk.start_frame / o.sprite.columns),
                path: await fetch(p.pieces.rows, `rows-${p.chunk.idx}.png`),
              });
            }
            const out = path.join(tmp, 'sprite.webp');
            await assembleSprite({ layout: o.sprite, rows, output: out });
            await put('sprite', out, 'image/webp');
          }
          const still = pieces.find((p) => p.pieces.screenshot);
          if (!still) throw new PermanentRenderError('no chunk rendered the hero still');
          await put('screenshot', await fetch(still.pieces.screenshot!, 'screenshot.webp'), 'image/webp');

          const renderMs = chunks.reduce((s, c) => s + (c.render_ms ?? 0), 0) + (performance.now() - started);
          const fps = o.frames / Math.max(1e-3, chunks.reduce((s, c) => s + (c.render_ms ?? 0), 0) / 1000);
          const completed = await record(() =>
            completeRender(
              db.db,
              renderId,
              { plan },
              {
                artifacts,
                spriteLayout: render.format === 'sprite' ? o.sprite : null,
                backend: chunks[0]?.backend ?? 'unknown',
                framesPerSecond: Math.round(fps * 100) / 100,
                renderMs,
                bytes,
              },
            ),
          );
          if (!completed.held) return dropped(completed);
          renderResults.inc({ result: 'completed' });
          renderDuration.observe({ format: render.format }, renderMs / 1000);
          framesPerSecond.set({ format: render.format }, fps);
          jlog.info({ assembleMs: Math.round(performance.now() - started) }, 'render assembled and completed');
          // the result is safe; pieces that fail to delete here are swept later
          await deleteChunkPieces(db, ctx.store, renderId, chunks).catch((err) =>
            jlog.warn({ err: (err as Error).message }, 'could not delete chunk pieces (the sweeper will)'),
          );
        },
      );
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  };
}
