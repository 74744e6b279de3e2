/**
 * Guards against odd catalog data. Specs come from imported records and may hold NaN, 0,
 * null, strings or absurd sizes; the stage replaces them with sensible defaults and never throws.
 */

/** A finite number within [min, max], or `fallback` when `value` is not a usable number. */
export function num(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, n));
}

/** Like num() but also treats 0 and negatives as missing (sizes, counts). */
export function positive(value: unknown, fallback: number, min: number, max: number): number {
  const n = num(value, NaN, -Infinity, Infinity);
  if (!Number.isFinite(n) || n <= 0) return fallback;
  return Math.min(max, Math.max(min, n));
}

/** A whole count within [min, max]. */
export function count(value: unknown, fallback: number, min: number, max: number): number {
  return Math.round(positive(value, fallback, min, max));
}

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

/** A `#rrggbb` colour, or `fallback` when `value` is not one. */
export function color(value: unknown, fallback: string): string {
  if (typeof value !== 'string') return fallback;
  const m = HEX.exec(value.trim());
  if (!m) return fallback;
  const hex = m[1]!;
  const full =
    hex.length === 3
      ? hex
          .split('')
          .map((c) => c + c)
          .join('')
      : hex;
  return `#${full.toLowerCase()}`;
}

/** `value` when it is one of `allowed`, else `fallback`. */
export function oneOf<T extends string | number>(value: unknown, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly unknown[]).includes(value) ? (value as T) : fallback;
}

export function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/** Specs as an indexable record, whatever arrived (null, array, primitive). */
export function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
