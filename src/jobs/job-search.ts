/**
 * Finding jobs by what an operator has at hand (`jobs list --search`, the console's jobs search):
 * the start of a job id, as the CLI and the console shorten them, or a saved build's share code.
 * An id prefix is turned into the range of ids it covers, so the primary key's index answers it
 * (a text LIKE on the id would read every job); share codes match whatever their case, through
 * sql/0016's index.
 */

/** The ids a prefix covers, as the lowest and highest UUID with it; null when it is not one (hex digits and dashes, 32 digits at most). */
export function idPrefixRange(prefix: string): { low: string; high: string } | null {
  const t = prefix.trim().toLowerCase();
  if (!/^[0-9a-f-]+$/.test(t)) return null;
  const hex = t.replace(/-/g, '');
  if (hex.length === 0 || hex.length > 32) return null;
  const uuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return { low: uuid(hex.padEnd(32, '0')), high: uuid(hex.padEnd(32, 'f')) };
}

/** Longest search text taken (a share code or a whole id is far shorter). */
export const MAX_SEARCH_LENGTH = 64;
