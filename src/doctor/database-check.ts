/**
 * Doctor: PostgreSQL reachable (embedded in the data dir or DATABASE_URL), its version, and
 * whether every migration in sql/ is applied. Reads only: it never migrates.
 */
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { DirectoryError } from '../ensure-dir.js';
import type { CheckOutcome } from './check.js';

export async function checkDatabase(cfg: Config): Promise<CheckOutcome> {
  const { openDatabase } = await import('../db/database.js');
  const { migrationStatus } = await import('../db/migrate.js');
  let db;
  try {
    db = await openDatabase(cfg, { poolSize: 2 });
  } catch (err) {
    const message = (err as Error).message;
    // "data dir (flag --data-dir): cannot use ...": the whole message is the finding
    if (err instanceof DirectoryError)
      return {
        status: 'fail',
        detail: message,
        fix: 'choose a writable directory with --data-dir or RENDER_FARM_DATA_DIR, or set DATABASE_URL',
      };
    const i = message.lastIndexOf('): ');
    return {
      status: 'fail',
      detail: i >= 0 ? message.slice(0, i + 1) : message,
      fix:
        i >= 0
          ? message.slice(i + 3)
          : cfg.databaseUrl
            ? 'start PostgreSQL or fix DATABASE_URL'
            : 'see the log with LOG_LEVEL=debug, or set DATABASE_URL',
    };
  }
  try {
    const version = (await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db.db)).rows[0]!.v;
    const status = await migrationStatus(db.pool);
    const pending = status.filter((s) => !s.applied).map((s) => s.version);
    const where = db.embedded
      ? `embedded PostgreSQL ${version} (${cfg.dataDir}/pg)`
      : `PostgreSQL ${version} (DATABASE_URL)`;
    const major = Number(version.split('.')[0]);
    const data = { embedded: db.embedded, version, migrations: status.length, pending };
    if (major < 14)
      return {
        status: 'fail',
        detail: `${where}: version 14 or newer is needed`,
        fix: 'upgrade PostgreSQL to 14+',
        data,
      };
    if (pending.length) {
      return {
        status: 'warn',
        detail: `${where}: ${pending.length} of ${status.length} migrations pending (${pending.join(', ')})`,
        fix: 'run "render-farm db migrate" (serve, up and worker also migrate when they start)',
        data,
      };
    }
    // enough connections for the farm (RENDER_FARM_EXPECTED_WORKERS) or for one more worker
    const { checkConnections, withConnections } = await import('./connections-check.js');
    return withConnections(
      { status: 'ok', detail: `${where}: ${status.length}/${status.length} migrations applied`, data },
      await checkConnections(cfg, db),
    );
  } finally {
    await db.close();
  }
}
