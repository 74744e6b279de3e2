/**
 * Per-process caches in front of the auth lookups, so a flood of wrong keys is not a flood of
 * database reads. Unknown keys are remembered by hash only (never the key itself).
 */
import { TtlCache } from './ttl-cache.js';

/** How long an unknown key hash is answered without asking the database again. */
export const UNKNOWN_KEY_TTL_MS = 60_000;

export interface AuthCaches {
  /** SHA-256 hashes of well-formed API keys the database does not know */
  unknownKeys: TtlCache<string, true>;
}

export function createAuthCaches(): AuthCaches {
  return { unknownKeys: new TtlCache(10_000, UNKNOWN_KEY_TTL_MS) };
}
