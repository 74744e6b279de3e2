/** Scopes of spec section 5.6 and what a credential gets by default. */
export const SCOPES = ['render:submit', 'render:status', 'data:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** Session tokens minted without `scopes` get these. */
export const DEFAULT_TOKEN_SCOPES: readonly Scope[] = ['render:submit', 'render:status'];

/** Long-lived API keys are trusted server-side credentials: every scope. */
export const API_KEY_SCOPES: readonly Scope[] = SCOPES;

export const ENVIRONMENTS = ['prod', 'staging'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export function isScope(s: unknown): s is Scope {
  return typeof s === 'string' && (SCOPES as readonly string[]).includes(s);
}

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(needed);
}
