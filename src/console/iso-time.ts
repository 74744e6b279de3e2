/** A database time as the console's JSON carries it: ISO 8601, or null when there is none. */
export const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
