/**
 * When to restart a server that died, and when to stop trying: a few attempts with growing
 * delays, counted over a sliding window, so that a server that crashes once a day is always
 * brought back while one that cannot start (or dies at once, again and again) is given up on
 * quickly, leaving the decision to a process supervisor.
 */

export interface RestartPolicy {
  /** restarts allowed within `windowMs` */
  maxAttempts: number;
  windowMs: number;
  /** delay before the first attempt; each further one within the window doubles it */
  baseDelayMs: number;
}

/** 3 restarts within a minute (docs/design-decisions.md, "A supervised embedded PostgreSQL"); the first after half a second, for the old server's backends to exit. */
export const EMBEDDED_PG_RESTARTS: RestartPolicy = { maxAttempts: 3, windowMs: 60_000, baseDelayMs: 500 };

export type RestartDecision =
  | { restart: true; attempt: number; delayMs: number }
  | { restart: false; attempts: number };

/**
 * The next step after a failure (the server exited, or an attempt to start it failed), given
 * when earlier attempts began (`attemptsAt`, ms) and the time now. Attempts older than the
 * window are forgotten.
 */
export function nextRestart(
  attemptsAt: readonly number[],
  now: number,
  policy: RestartPolicy = EMBEDDED_PG_RESTARTS,
): RestartDecision {
  const recent = attemptsAt.filter((t) => now - t < policy.windowMs).length;
  if (recent >= policy.maxAttempts) return { restart: false, attempts: recent };
  return { restart: true, attempt: recent + 1, delayMs: policy.baseDelayMs * 2 ** recent };
}
