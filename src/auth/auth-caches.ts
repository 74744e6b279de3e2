/**
 * Per-process caches in front of the auth lookups, so a flood of wrong keys is not a flood of
 * database reads. Unknown keys are remembered by hash only (never the key itself).
 */
import { TtlCache } from './ttl-cache.js';

/** How long an unknown key hash is answered without asking the database again. */
export const UNKNOWN_KEY_TTL_MS = 60_000;

/**
 * How long a key's revocation state is trusted before the database is asked again: the most a
 * session token outlives the revocation of the key that minted it, on any serve.
 */
export const KEY_STATE_TTL_MS = 5_000;

export interface AuthCaches {
  /** SHA-256 hashes of well-formed API keys the database does not know */
  unknownKeys: TtlCache<string, true>;
  /** API key id -> revoked (or deleted), for the session tokens it minted */
  keyRevoked: TtlCache<string, boolean>;
}

export function createAuthCaches(): AuthCaches {
  return { unknownKeys: new TtlCache(10_000, UNKNOWN_KEY_TTL_MS), keyRevoked: new TtlCache(10_000, KEY_STATE_TTL_MS) };
}
