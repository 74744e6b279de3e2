/** Byte ranges: checking them against a size, and reading an HTTP `Range` header (RFC 9110 14.2). */
import type { ByteRange } from './artifact-store.js';

/** Throws RangeError unless `range` is a non-empty inclusive range inside `size` bytes. */
export function checkRange(range: ByteRange, size: number): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end >= size) {
    throw new RangeError(`byte range ${start}-${end} is not inside ${size} bytes`);
  }
}

/** What a Range header asks of a representation of a given size. */
export type RangeRequest =
  /** no header, or one the server ignores (another unit, malformed, several ranges): send all */
  | { kind: 'full' }
  | { kind: 'partial'; range: ByteRange }
  /** answer 416 with `Content-Range: bytes * /size` */
  | { kind: 'unsatisfiable' };

const SPEC = /^(\d*)-(\d*)$/;

/**
 * Parses `header` for a representation of `size` bytes. Only a single range is honoured:
 * multipart/byteranges responses are rarely used by video players and browsers, and RFC 9110
 * lets a server ignore Range, so several ranges get the whole body.
 */
export function parseRangeHeader(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'full' };
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return { kind: 'full' };
  const specs = header
    .slice(eq + 1)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (specs.length !== 1) return { kind: 'full' };
  const m = SPEC.exec(specs[0]!);
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  if (m[1] === '') {
    // suffix range: the last N bytes
    const n = Number(m[2]);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - n), end: size - 1 } };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? Infinity : Number(m[2]);
  if (last < start) return { kind: 'full' }; // invalid syntax per RFC 9110: ignore the header
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end: Math.min(last, size - 1) } };
}
