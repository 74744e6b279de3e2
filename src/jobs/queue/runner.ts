/** Starting graphile-worker: its schema. */
import type pg from 'pg';
import { quietLogger } from './graphile-logger.js';

/** Installs or upgrades graphile-worker's schema (idempotent; safe from many processes). */
export async function installQueue(pool: pg.Pool): Promise<void> {
  const gw = await import('graphile-worker');
  await gw.runMigrations({ pgPool: pool, logger: quietLogger(gw.Logger) });
}
