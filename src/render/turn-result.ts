/**
 * The one result assembly of a turn, for a whole render (render-build.ts) and a farm chunk
 * (render-chunk.ts) alike: files written under temporary names are renamed into place only
 * when every one of them is complete, then sized, and the turn is reported.
 */
import { rename, stat } from 'node:fs/promises';
import type { RenderSession } from './browser-pool.js';
import type { GlBackendName } from './chromium-args.js';
import type { TurnRequest, TurnResult, VideoPath } from './turn.js';

/** What a turn reports, the same for a whole render and a chunk. */
export interface TurnReport {
  /** frames of the turn */
  frames: number;
  /** frames rendered and captured per second */
  framesPerSecond: number;
  /** milliseconds */
  timings: { load: number; render: number; encode: number; total: number };
  backend: GlBackendName;
  glRenderer: string;
  warnings: string[];
  /** how the video was encoded (absent without a video) */
  videoPath?: VideoPath;
}

/** A file of the result: written to `temp`, put at `file.path` by finishTurn, which sets its bytes. */
export type FinalFile<F extends { path: string; bytes: number }> = readonly [temp: string, file: F];

/** Renames the turn's files into place, sizes them, reports the turn and says it is done. */
export async function finishTurn<F extends { path: string; bytes: number }>(
  session: RenderSession,
  req: Pick<TurnRequest, 'signal' | 'onProgress'>,
  turn: TurnResult,
  finals: readonly FinalFile<F>[],
): Promise<{ files: F[]; report: TurnReport }> {
  req.signal?.throwIfAborted();
  for (const [temp, f] of finals) await rename(temp, f.path);
  for (const [, f] of finals) f.bytes = (await stat(f.path)).size;
  const end = performance.now();
  const frames = turn.frames;
  const report: TurnReport = {
    frames,
    framesPerSecond: fpsOf(frames, turn.rendered - turn.renderStart),
    timings: {
      load: Math.round(turn.loaded - turn.started),
      render: Math.round(turn.rendered - turn.renderStart),
      encode: Math.round(end - turn.rendered),
      total: Math.round(end - turn.started),
    },
    backend: session.backend,
    glRenderer: session.gl.renderer,
    // a GPU crash this render survived on the CPU (browser-pool.ts) is reported with it
    warnings: [...(turn.info.warnings ?? []), ...(session.fallback ? [session.fallback] : [])],
    ...(turn.videoPath ? { videoPath: turn.videoPath } : {}),
  };
  req.onProgress?.({ stage: 'done', frame: frames, total: frames, fps: report.framesPerSecond });
  return { files: finals.map(([, f]) => f), report };
}

function fpsOf(frames: number, ms: number): number {
  return frames > 0 ? Math.round((frames / Math.max(1e-3, ms / 1000)) * 100) / 100 : 0;
}
