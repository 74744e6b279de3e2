/**
 * The demo catalog goes into an empty database only (docs/catalog.md): restarting `serve`
 * must not bring back a deleted demo build, nor add demo parts to an imported catalog; and
 * RENDER_FARM_SEED_DEMO=false seeds nothing. Real PostgreSQL, the real server start.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/api/server.js';
import { getBuild } from '../../src/catalog/builds.js';
import { seedDemoCatalog } from '../../src/catalog/seed-demo.js';
import { DEMO_BUILDS, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createTestDb, type TestDb } from '../helpers/db.js';

const log = createLogger({ logLevel: 'silent' });
const count = async (t: TestDb, table: 'parts' | 'builds') =>
  Number((await t.db.pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

describe('demo catalog seeding', () => {
  let t: TestDb | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  /** One serve start and stop on the test database. */
  const serveOnce = async (db: TestDb, seedDemo: boolean) => {
    const cfg = loadConfig(
      { databaseUrl: db.url, dataDir: db.cfg.dataDir, signingSecret: db.cfg.signingSecret, port: 0, seedDemo },
      {},
    );
    const server = await startServer(cfg, { db: db.db, log });
    await server.close();
  };

  it('seeds an empty database on the first start; a deleted demo build stays deleted on the next', async () => {
    t = await createTestDb();
    await serveOnce(t, true);
    expect(await count(t, 'builds')).toBe(DEMO_BUILDS.length);
    expect(await count(t, 'parts')).toBe(DEMO_PARTS.length);
    await t.db.db.deleteFrom('builds').where('share_code', '=', 'DEMO-GLASS').execute();
    await serveOnce(t, true);
    expect(await getBuild(t.db, 'DEMO-GLASS')).toBeNull();
    expect(await count(t, 'builds')).toBe(DEMO_BUILDS.length - 1);
  });

  it('adds nothing to a catalog that already holds parts (e.g. an OpenDB import)', async () => {
    t = await createTestDb();
    await t.db.db
      .insertInto('parts')
      .values({
        id: 'imported1',
        category: 'GPU',
        name: 'Imported GPU',
        specs: JSON.stringify({}),
        raw: null,
        opendb_id: '00000000-0000-4000-8000-000000000001',
      })
      .execute();
    expect(await seedDemoCatalog(t.db)).toEqual({ parts: 0, builds: 0 });
    await serveOnce(t, true);
    expect(await count(t, 'parts')).toBe(1);
    expect(await count(t, 'builds')).toBe(0);
  });

  it('RENDER_FARM_SEED_DEMO=false seeds nothing, even into an empty database', async () => {
    t = await createTestDb();
    expect(loadConfig({}, { RENDER_FARM_SEED_DEMO: 'false' }).seedDemo).toBe(false);
    await serveOnce(t, false);
    expect(await count(t, 'parts')).toBe(0);
    expect(await count(t, 'builds')).toBe(0);
  });
});
