/**
 * Opens the database of a config: DATABASE_URL when set, else the embedded PostgreSQL in the
 * data dir. Returns kysely plus the pg pool (graphile-worker shares the connection string).
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { describeSetting, type Config } from '../config.js';
import { ensureDir } from '../ensure-dir.js';
import { UnavailableError } from '../errors.js';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded.js';
import { migrate } from './migrate.js';
import type { Database } from './schema.js';

export interface Db {
  db: Kysely<Database>;
  pool: pg.Pool;
  connectionString: string;
  embedded: boolean;
  /** the embedded server when this process started it (up supervises it), else null */
  embeddedServer: EmbeddedPostgresHandle | null;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** apply pending migrations (serve/up/db migrate do) */
  migrate?: boolean;
  log?: (line: string) => void;
  /** one line a person should read about the embedded server (one left running by a process that is gone was stopped) */
  notice?: (line: string) => void;
  /** database name on the embedded server (tests use one per file) */
  database?: string;
  poolSize?: number;
  /**
   * PostgreSQL's application_name for this process's connections (pg_stat_activity shows it):
   * default `render-farm`; workers add their role and pid, so connections count per process
   */
  applicationName?: string;
}

/** PostgreSQL cannot be reached; the message says how to fix it. */
export class DatabaseUnavailableError extends UnavailableError {
  constructor(message: string, opts: { cause?: unknown } = {}) {
    super('database_unavailable', message, opts);
    this.name = 'DatabaseUnavailableError';
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@]*@/, '//$1:***@');
}

export async function openDatabase(cfg: Config, opts: OpenOptions = {}): Promise<Db> {
  let embedded: EmbeddedPostgresHandle | null = null;
  let connectionString: string;
  if (cfg.databaseUrl) {
    connectionString = cfg.databaseUrl;
  } else {
    await ensureDir(cfg.dataDir, describeSetting(cfg, 'dataDir', 'data dir'));
    embedded = await startEmbeddedPostgres(cfg.dataDir, cfg.embeddedPgPort, opts.log, {}, { notice: opts.notice });
    connectionString = embedded.connectionString(opts.database);
  }
  const pool = new pg.Pool({
    connectionString,
    max: opts.poolSize ?? 10,
    application_name: (opts.applicationName ?? 'render-farm').slice(0, 63),
  });
  // an idle client losing its server must not crash the process; queries report it instead
  pool.on('error', () => {});
  // a client whose connection drops mid-use reports through its query; keep the process alive
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await pool.end().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw new DatabaseUnavailableError(
      `cannot connect to PostgreSQL at ${redact(connectionString)} (${(err as Error).message}): start it, fix DATABASE_URL, or unset DATABASE_URL to use the embedded one`,
      // the driver's error (SQLSTATE 53300 "too many clients", ECONNREFUSED) tells waiting apart from failing
      { cause: err },
    );
  }
  if (opts.migrate) {
    try {
      await migrate(pool);
    } catch (err) {
      // a server this call started must not outlive the failure
      await pool.end().catch(() => {});
      await embedded?.stop().catch(() => {});
      throw err;
    }
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    db,
    pool,
    connectionString,
    embedded: embedded !== null,
    embeddedServer: embedded?.owned ? embedded : null,
    close: async () => {
      if (closed) return;
      closed = true;
      await db.destroy().catch(() => {});
      await embedded?.stop();
    },
  };
}
