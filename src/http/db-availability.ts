/**
 * Whether the API can reach PostgreSQL, as requests find out. An outage is logged once when it
 * starts and once when it ends, not once per request: during an outage every request fails
 * the same way, and a stack per request buries the one line an operator needs.
 */
import type { Logger } from '../log.js';

/** Seconds a client is told to wait (Retry-After) while the database is unreachable. */
export const DB_RETRY_AFTER_S = 5;

export class DbAvailability {
  private downSince: Date | null = null;

  constructor(private readonly log: Logger) {}

  get isDown(): boolean {
    return this.downSince !== null;
  }

  /** A request found the database unreachable. */
  down(err: unknown): void {
    if (this.downSince) return;
    this.downSince = new Date();
    const e = err as { code?: unknown; message?: unknown };
    this.log.error(
      { code: e?.code, reason: String(e?.message ?? err) },
      'database unavailable: answering 503 database_unavailable until it is back',
    );
  }

  /** A connection to the database was made (the pool's 'connect' event, /health). */
  up(): void {
    if (!this.downSince) return;
    const seconds = Math.round((Date.now() - this.downSince.getTime()) / 1000);
    this.downSince = null;
    this.log.info({ downForSeconds: seconds }, 'database reachable again');
  }
}
