/** Scopes of spec section 5.6 and what a credential gets by default. */

/** Scopes a session token may carry: what browsers and customers' servers need. */
export const TOKEN_SCOPES = ['render:submit', 'render:status', 'data:read'] as const;

/**
 * Scopes only admin API keys carry (`render-farm keys create --admin`): `models:write` replaces
 * the part models every customer's renders show, so it is the operator's, never a customer's,
 * and never a session token's (a token lives in a browser).
 */
export const ADMIN_SCOPES = ['models:write'] as const;

/**
 * Signing in to the web console (/console): keys created with `keys create --console`, and
 * admin keys. Neither a token scope (a session token never carries it: the console has its own
 * cookie session) nor an admin one (a customer may watch its own renders).
 */
export const CONSOLE_SCOPE = 'console';

export const SCOPES = [...TOKEN_SCOPES, ...ADMIN_SCOPES, CONSOLE_SCOPE] as const;
export type Scope = (typeof SCOPES)[number];
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Session tokens minted without `scopes` get these. */
export const DEFAULT_TOKEN_SCOPES: readonly Scope[] = ['render:submit', 'render:status'];

/** Long-lived (customer) API keys are trusted server-side credentials: every token scope. */
export const API_KEY_SCOPES: readonly Scope[] = TOKEN_SCOPES;

/** Console API keys (`keys create --console`): the customer's token scopes and the console. */
export const CONSOLE_KEY_SCOPES: readonly Scope[] = [...TOKEN_SCOPES, CONSOLE_SCOPE];

/** Admin API keys: every scope, the admin ones and the console included. */
export const ADMIN_KEY_SCOPES: readonly Scope[] = SCOPES;

export const ENVIRONMENTS = ['prod', 'staging'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export function isScope(s: unknown): s is Scope {
  return typeof s === 'string' && (SCOPES as readonly string[]).includes(s);
}

/** True for a scope a session token may carry. */
export function isTokenScope(s: unknown): s is TokenScope {
  return typeof s === 'string' && (TOKEN_SCOPES as readonly string[]).includes(s);
}

/** True for a scope only admin API keys carry. */
export function isAdminScope(s: unknown): boolean {
  return typeof s === 'string' && (ADMIN_SCOPES as readonly string[]).includes(s);
}

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(needed);
}
