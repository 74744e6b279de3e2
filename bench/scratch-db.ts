/**
 * The database a bench fills and throws away: the embedded PostgreSQL under `dataDir` (a temp
 * dir, gone with it), or, when DATABASE_URL is set, a database created beside the operator's and
 * dropped by `drop()`: a bench never writes into the operator's database.
 */
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.js';
import { freePort } from '../src/db/free-port.js';

export interface ScratchDb {
  /** the configuration that opens it */
  cfg: Config;
  /** drops the scratch database (nothing for the embedded one); call it in a finally */
  drop(): Promise<void>;
}

/** `label` names the scratch database (`render_farm_<label>_<pid>`): letters, digits and `_`. */
export async function scratchDb(dataDir: string, label: string): Promise<ScratchDb> {
  const base = loadConfig({ dataDir, embeddedPgPort: await freePort() });
  if (!base.databaseUrl) return { cfg: base, drop: async () => {} };
  const adminUrl = base.databaseUrl;
  const name = `render_farm_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    cfg: loadConfig({ dataDir, databaseUrl: url.toString() }),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => {});
      await client.end();
    },
  };
}
