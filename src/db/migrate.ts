/** Applies the numbered SQL files of sql/ once each, in order, under an advisory lock. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { PACKAGE_ROOT } from '../package-root.js';

export const SQL_DIR = path.join(PACKAGE_ROOT, 'sql');
const LOCK_ID = 727_001;

export interface MigrationStatus {
  version: string;
  applied: boolean;
  appliedAt: Date | null;
}

async function files(): Promise<string[]> {
  return (await fs.readdir(SQL_DIR)).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort();
}

async function ensureTable(client: pg.PoolClient): Promise<void> {
  await client.query(
    `CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
}

/** Returns the versions applied by this call (empty when up to date). */
export async function migrate(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    await ensureTable(client);
    const done = new Set(
      (await client.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    for (const file of await files()) {
      const version = file.replace(/\.sql$/, '');
      if (done.has(version)) continue;
      const sql = await fs.readFile(path.join(SQL_DIR, file), 'utf8');
      try {
        await client.query('BEGIN');
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
      applied.push(version);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => {});
    client.release();
  }
  return applied;
}

export async function migrationStatus(pool: pg.Pool): Promise<MigrationStatus[]> {
  const client = await pool.connect();
  try {
    await ensureTable(client);
    const rows = (
      await client.query<{ version: string; applied_at: Date }>('SELECT version, applied_at FROM schema_migrations')
    ).rows;
    const byVersion = new Map(rows.map((r) => [r.version, r.applied_at]));
    return (await files()).map((f) => {
      const version = f.replace(/\.sql$/, '');
      return { version, applied: byVersion.has(version), appliedAt: byVersion.get(version) ?? null };
    });
  } finally {
    client.release();
  }
}
