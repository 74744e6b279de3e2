/** Classifies errors from PostgreSQL and the pg driver, so the API can answer them properly. */
import { SOCKET_CODES } from './connection-errors.js';

interface PgLikeError {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
}

/**
 * Text PostgreSQL refuses to store: NUL in text (22021) or in jsonb (22P05). Request validation
 * refuses control characters first; this is the backstop that keeps such input a 400.
 */
export function isUnstorableTextError(err: unknown): boolean {
  const code = (err as PgLikeError | null)?.code;
  return code === '22021' || code === '22P05';
}

/** Socket errors of a connection that cannot be made or was lost: also one aborted mid-handshake. */
const NETWORK_CODES = new Set([...SOCKET_CODES, 'ECONNABORTED']);

/**
 * SQLSTATEs of a server that is going away or will not take us: class 08 (connection
 * exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now: starting up or
 * shutting down), 53300 (too many connections).
 */
const SERVER_CODES = /^(08...|57P0[123]|53300)$/;

/** What the pg driver and pool say when the connection is gone or never came. */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|is not queryable|Connection ended unexpectedly|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * True when `err` means PostgreSQL cannot be reached (down, restarting, refusing connections),
 * as opposed to a query that failed. Looks into AggregateError (Node tries each address of a
 * host name) and `cause`.
 */
export function isDatabaseUnavailableError(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== 'object' || depth > 3) return false;
  const e = err as PgLikeError & { cause?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SERVER_CODES.test(e.code))) return true;
  if (typeof e.message === 'string' && DRIVER_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailableError(x, depth + 1))) return true;
  return e.cause !== undefined && isDatabaseUnavailableError(e.cause, depth + 1);
}
