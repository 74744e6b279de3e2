/**
 * Telling "the database is unreachable right now" (restart, failover, network) apart from a
 * query that is wrong: only the first is worth waiting out.
 */

/** Node socket errors seen when PostgreSQL is down or unreachable. */
export const SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/**
 * SQLSTATEs of a server shutting down or starting up (57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now), or full (53300 too_many_connections: a slot frees when another
 * process lets one go, so it is waited out like an outage).
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres reports a dropped connection by message only. */
const DROPPED =
  /Connection terminated|connection error|terminating connection|timeout exceeded when trying to connect|Client was closed and is not queryable/i;

export function isConnectionError(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    // SQLSTATE class 08: connection exception
    if (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08')) return true;
    if (typeof e.message === 'string' && DROPPED.test(e.message)) return true;
    // AggregateError (a failed connect to several addresses) carries the socket errors inside
    if (Array.isArray(e.errors) && e.errors.some((x) => isConnectionError(x))) return true;
    e = e.cause as typeof e;
  }
  return false;
}
