/**
 * One farm chunk of a render: frames [start, end) of the turn (turn.ts) as the pieces that
 * encode/assemble.ts joins into exactly the bytes of the whole render.
 */
import path from 'node:path';
import sharp from 'sharp';
import { writeScreenshotRaw } from '../encode/screenshot.js';
import { startH264File } from '../encode/h264-file.js';
import { chunkUnitFrames } from '../model/chunk-unit.js';
import type { RenderSession } from './browser-pool.js';
import type { SpriteLayout } from '../model/sprite-layout.js';
import { runTurn, withModelSource, withScratch, type SheetTarget, type TurnRequest } from './turn.js';
import { finishTurn, type FinalFile, type TurnReport } from './turn-result.js';

/** One farm chunk of a render: frames [start, end) of the full turn (see renderChunk). */
export interface ChunkRequest extends TurnRequest {
  /** frames [start, end) of the full turn; start a multiple of chunkUnitFrames(options), end a multiple of it or options.frames */
  start: number;
  end: number;
}

/**
 * A chunk's file: `h264` (video.h264, the raw segments of its frames), `rows` (rows.png, its
 * sprite sheet rows, lossless RGBA) or `screenshot` (screenshot.webp, when the hero frame is in it).
 */
export interface ChunkPiece {
  kind: 'h264' | 'rows' | 'screenshot';
  path: string;
  mime: string;
  bytes: number;
}

/** The chunk's pieces and the turn's report (frames: end - start). */
export interface ChunkResult extends TurnReport {
  /** files in req.outDir */
  pieces: ChunkPiece[];
}

/**
 * Renders frames [start, end) of a build for the farm: the pieces that encode/assemble.ts
 * joins into exactly the bytes renderBuild writes for the whole turn (opaque renders only).
 */
export async function renderChunk(req: ChunkRequest): Promise<ChunkResult> {
  checkChunk(req);
  return req.pool.use(
    (session) => withModelSource(session, req.models, () => renderChunkWith(session, req)),
    req.signal,
  );
}

function checkChunk(req: ChunkRequest): void {
  const o = req.options;
  // transparent frames take other capture paths (PNG per frame) that chunks do not reproduce
  if (req.transparent) throw new Error('renderChunk: transparent renders are not chunked');
  const unit = chunkUnitFrames(o);
  const { start, end } = req;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start || end > o.frames) {
    throw new RangeError(`renderChunk: frames [${start}, ${end}) outside the turn of ${o.frames}`);
  }
  if (start % unit !== 0 || (end % unit !== 0 && end !== o.frames)) {
    throw new RangeError(
      `renderChunk: frames [${start}, ${end}) must start and end on multiples of ${unit} (or end at ${o.frames})`,
    );
  }
}

/**
 * A chunk's sheet rows, kept raw as the page sent them (RGBA, top-down) and written as one
 * lossless PNG: assembleSprite hands exactly these bytes to SpriteSheetWriter.addRow.
 */
class ChunkRows implements SheetTarget {
  private readonly rows = new Map<number, Uint8Array>();

  constructor(
    readonly layout: SpriteLayout,
    private readonly firstRow: number,
    private readonly count: number,
  ) {}

  addRow(row: number, rgba: Uint8Array): void {
    const width = this.layout.columns * this.layout.frame_width;
    if (row < this.firstRow || row >= this.firstRow + this.count)
      throw new RangeError(`row ${row} outside this chunk's ${this.firstRow}..${this.firstRow + this.count - 1}`);
    if (rgba.length !== width * this.layout.frame_height * 4)
      throw new Error(`row ${row} has ${rgba.length} bytes, expected ${width}x${this.layout.frame_height} RGBA`);
    this.rows.set(row, rgba);
  }

  add(): Promise<void> {
    return Promise.reject(new Error('chunk rows take whole sheet rows only'));
  }

  async writePng(file: string): Promise<void> {
    const width = this.layout.columns * this.layout.frame_width;
    const height = this.count * this.layout.frame_height;
    const parts: Uint8Array[] = [];
    for (let r = this.firstRow; r < this.firstRow + this.count; r++) {
      const row = this.rows.get(r);
      if (!row) throw new Error(`sheet row ${r} was not captured`);
      parts.push(row);
    }
    // lossless and only a hop to the assemble step: cheap compression
    await sharp(Buffer.concat(parts), { raw: { width, height, channels: 4 } })
      .png({ compressionLevel: 1 })
      .toFile(file);
  }
}

async function renderChunkWith(session: RenderSession, req: ChunkRequest): Promise<ChunkResult> {
  const o = req.options;
  const full: TurnRequest = { ...req, transparent: false };
  return withScratch(
    session,
    full,
    async (scratch) => {
      const indices = Array.from({ length: req.end - req.start }, (_, i) => req.start + i);
      const video = o.format === 'video';
      const layout = video ? null : o.sprite;
      if (!video && !layout) throw new Error('renderChunk: sprite options without a sprite layout');
      let videoTemp: string | null = null;
      const firstRow = layout ? req.start / layout.columns : 0;
      const rowCount = layout ? Math.ceil(req.end / layout.columns) - firstRow : 0;
      const turn = await runTurn(session, full, scratch, {
        indices,
        transparent: false,
        videoSink: video
          ? () => {
              videoTemp = scratch.tempFor('video.h264');
              return startH264File(videoTemp);
            }
          : null,
        sheet: layout ? () => new ChunkRows(layout, firstRow, rowCount) : null,
        still: true,
        reuseStage: true,
      });
      const { done, videoPath } = turn;
      const finals: FinalFile<ChunkPiece>[] = [];
      const piece = (kind: ChunkPiece['kind'], name: string, mime: string): ChunkPiece => ({
        kind,
        path: path.join(req.outDir, name),
        mime,
        bytes: 0,
      });
      if (videoTemp && videoPath) finals.push([videoTemp, piece('h264', 'video.h264', 'video/h264')]);
      if (done.sheet) {
        const temp = scratch.tempFor('rows.png');
        await done.sheet.writePng(temp);
        finals.push([temp, piece('rows', 'rows.png', 'image/png')]);
      }
      if (done.still) {
        // exactly the whole render's in-turn still (same raw pixels, same encoder settings)
        const temp = scratch.tempFor('screenshot.webp');
        await writeScreenshotRaw(done.still, o.width, o.height, 'webp', temp);
        finals.push([temp, piece('screenshot', 'screenshot.webp', 'image/webp')]);
      }
      const { files, report } = await finishTurn(session, full, turn, finals);
      return { pieces: files, ...report };
    },
    true,
  );
}
