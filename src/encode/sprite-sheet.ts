/**
 * Composes a WebP sprite sheet as frames arrive: whole raw rows composed by the page, or
 * encoded frames (transparent sheets, the x264 path) decoded one by one. Either is copied
 * straight into one raw sheet buffer, so memory is the sheet (which libwebp needs whole
 * anyway) plus one row, never every frame at once.
 */
import sharp from 'sharp';
import type { SpriteLayout } from '../model/sprite-layout.js';
import { cellOrigin, sheetSize } from '../model/sprite-layout.js';

/** Collects frames into a sheet and encodes it once every frame is in. */
export class SpriteSheetWriter {
  private readonly sheet: Buffer;
  private readonly size: { width: number; height: number };
  private readonly seen = new Set<number>();

  /** `alpha`: keep transparency (4 channels) instead of RGB. */
  constructor(
    readonly layout: SpriteLayout,
    private readonly alpha = false,
  ) {
    this.size = sheetSize(layout);
    this.sheet = Buffer.alloc(this.size.width * this.size.height * this.channels);
  }

  private get channels(): number {
    return this.alpha ? 4 : 3;
  }

  /** Decodes one encoded frame (JPEG/PNG/WebP) and places it at its cell. */
  async add(index: number, encoded: Buffer): Promise<void> {
    const { left, top } = cellOrigin(this.layout, index);
    const fw = this.layout.frame_width;
    const fh = this.layout.frame_height;
    let img = sharp(encoded).resize(fw, fh, { fit: 'fill' });
    img = this.alpha ? img.ensureAlpha() : img.removeAlpha();
    const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
    if (info.width !== fw || info.height !== fh || info.channels !== this.channels) {
      throw new Error(
        `frame ${index} decoded to ${info.width}x${info.height}x${info.channels}, expected ${fw}x${fh}x${this.channels}`,
      );
    }
    const rowBytes = fw * this.channels;
    const sheetRow = this.size.width * this.channels;
    for (let y = 0; y < fh; y++) {
      data.copy(this.sheet, (top + y) * sheetRow + left * this.channels, y * rowBytes, (y + 1) * rowBytes);
    }
    this.seen.add(index);
  }

  /**
   * Places one whole row of the sheet, composed in the page: raw RGBA, top-down, opaque
   * (alpha is dropped on an RGB sheet), `columns * frame_width` wide. A plain copy loop,
   * ~15 ms a 6144x512 row: ~1 ms a frame, against ~3 ms to decode one JPEG frame with sharp.
   */
  addRow(row: number, rgba: Uint8Array): void {
    const { columns, rows, frames, frame_width: fw, frame_height: fh } = this.layout;
    if (!Number.isInteger(row) || row < 0 || row >= rows) throw new RangeError(`row ${row} outside 0..${rows - 1}`);
    const width = columns * fw;
    if (rgba.length !== width * fh * 4)
      throw new Error(`row ${row} has ${rgba.length} bytes, expected ${width}x${fh} RGBA`);
    const ch = this.channels;
    const sheet = this.sheet;
    const base = row * fh * width * ch;
    if (ch === 4) sheet.set(rgba, base);
    else {
      for (let s = 0, d = base, end = rgba.length; s < end; s += 4) {
        sheet[d++] = rgba[s]!;
        sheet[d++] = rgba[s + 1]!;
        sheet[d++] = rgba[s + 2]!;
      }
    }
    for (let i = row * columns; i < Math.min(frames, (row + 1) * columns); i++) this.seen.add(i);
  }

  /**
   * Encodes the sheet as WebP to `file`; every frame must have been added. Tries `steps`
   * (sheetEncodings: see there) in turn and returns the one that worked; throws SpriteEncodeError
   * when none does.
   */
  async writeWebp(file: string, quality = 90, steps: SheetStep[] = sheetEncodings(quality)): Promise<SheetEncoding> {
    if (this.seen.size !== this.layout.frames) {
      throw new Error(`sprite sheet has ${this.seen.size} of ${this.layout.frames} frames`);
    }
    const { width, height } = this.size;
    const failures: string[] = [];
    const tries: SheetEncoding['tries'] = [];
    for (const step of steps) {
      const t0 = performance.now();
      try {
        const info = await sharp(this.sheet, { raw: { width, height, channels: this.channels as 3 | 4 } })
          .webp(
            step.lossless
              ? { lossless: true, effort: step.effort }
              : { quality: step.quality, alphaQuality: 100, effort: step.effort },
          )
          .toFile(file);
        tries.push({ ...step, ms: Math.round(performance.now() - t0), ok: true });
        return { ...step, bytes: info.size, failedSteps: failures.length, tries };
      } catch (err) {
        tries.push({ ...step, ms: Math.round(performance.now() - t0), ok: false });
        failures.push(`${stepName(step)}: ${oneLine(err)}`);
      }
    }
    throw new SpriteEncodeError(width, height, failures);
  }
}

/** How a sheet was encoded: the step of SHEET_ENCODINGS that worked, and how many failed before it. */
export interface SheetEncoding extends SheetStep {
  bytes: number;
  failedSteps: number;
  /** every step tried, in order, with its time (bench:render --sheets prints them) */
  tries: Array<SheetStep & { ms: number; ok: boolean }>;
}

/**
 * The sheet could not be encoded at any step: the words a job's `error` shows (never libvips's
 * text, which says "write failed" and "Unknown error -1"); the library's messages go in `steps`
 * for the log. Retrying cannot help: the same pixels fail the same way.
 */
export class SpriteEncodeError extends Error {
  constructor(
    readonly width: number,
    readonly height: number,
    readonly steps: string[],
  ) {
    super(`the sprite sheet could not be encoded at ${width}x${height}: ask for a smaller frame or a video`);
    this.name = 'SpriteEncodeError';
  }
}

/** One way of encoding a sheet: lossy at `quality` and `effort`, or lossless (quality unused). */
export interface SheetStep {
  effort: number;
  quality: number;
  lossless?: true;
}

/**
 * The encode settings tried in order. Effort 0 first: the encode is the render's tail (one
 * thread, ~19 MP for 72 frames at 512); measured on DEMO-GLASS 512 sheets against the lossless
 * sheet, effort 2 -> 0 took 15-25% less CPU for 2.4-5% more bytes at the same SSIM. But libwebp's
 * lossy (VP8) encoder refuses some large sheets (libvips: "webpsave: unable to encode"): VP8's
 * first partition, the per-macroblock modes, has a fixed size limit, which a sheet of ~10^6
 * macroblocks can overrun. A higher effort codes the modes more tightly and a lower quality picks
 * cheaper ones, which saves some sheets (a 6144x3072 and a 16380x8190 noise sheet fail at effort
 * 0 and encode at effort 2); a real 16380x16380 render (1365 px frames, high) failed every lossy
 * setting tried (effort 0-4, quality 90-50). Lossless WebP (VP8L) has no such partition: it
 * encoded that sheet in 20 s at effort 0 (56.5 MB), so it is the last step.
 */
export function sheetEncodings(quality: number): SheetStep[] {
  const steps: SheetStep[] = [
    { effort: 0, quality },
    { effort: 2, quality },
    { effort: 0, quality: Math.min(quality, 75) },
    { effort: 0, quality: 100, lossless: true },
  ];
  return steps.filter(
    (s, i) =>
      steps.findIndex((t) => t.effort === s.effort && t.quality === s.quality && t.lossless === s.lossless) === i,
  );
}

/** `effort 0 quality 90`, `lossless effort 0` */
export function stepName(step: SheetStep): string {
  return step.lossless ? `lossless effort ${step.effort}` : `effort ${step.effort} quality ${step.quality}`;
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, '; ');
}
