/** Numbers and times as the console's pages write them. */

/** Bytes with a binary unit: 1536 -> "1.5 KiB". */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/** How long ago an ISO time was, coarsely: "12 s ago", "3 min ago", "2 h ago", else the date. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '-';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 90) return `${s} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h ago`;
  return when(iso);
}

/**
 * A date-time as the rest of the product writes it (the CLI, the API, logs): ISO 8601 in UTC to
 * the second, `2025-01-01T12:00:01Z`, the same whatever the browser's locale and zone.
 */
export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toISOString().replace(/\.\d+Z$/, 'Z') : '-';
}

/** Seconds as "4.2 s" or "3 min 10 s". */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '-';
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/** A short form of an id for tables (the full id is in the link and its title). */
export function shortId(id: string): string {
  return id.length > 12 ? id.slice(0, 8) : id;
}
