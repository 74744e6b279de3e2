import { describe, expect, it } from 'vitest';
import { migrate, migrationStatus } from '../../src/db/migrate.js';
import { useTestDb } from '../helpers/db.js';

describe('migrations', () => {
  const t = useTestDb();

  it('are all applied on the template and re-running applies nothing', async () => {
    const status = await migrationStatus(t.db.pool);
    expect(status.length).toBeGreaterThan(0);
    expect(status.every((s) => s.applied)).toBe(true);
    expect(await migrate(t.db.pool)).toEqual([]);
  });

  it('created the foundation tables', async () => {
    const { rows } = await t.db.pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
    );
    expect(rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['api_keys', 'builds', 'customers', 'parts']));
  });
});
