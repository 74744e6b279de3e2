/**
 * Serves sharing a database agree on the session-token signing secret without configuration:
 * two serves with different data dirs accept each other's tokens; a configured secret wins;
 * a data dir's existing secret becomes the shared one when the database has none yet.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { resolveSigningSecret, SECRET_FILE } from '../../src/auth/signing-secret.js';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createTestDb, type TestDb } from '../helpers/db.js';

describe('shared signing secret', () => {
  const dbs: TestDb[] = [];
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  const tmpDir = async () => {
    const d = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-secret-'));
    dirs.push(d);
    return d;
  };
  /** a fresh database, with no signing secret configured */
  const freshDb = async () => {
    const t = await createTestDb({ signingSecret: undefined });
    dbs.push(t);
    return t;
  };
  const serve = async (url: string, dataDir: string) => {
    const s = await startServer(loadConfig({ databaseUrl: url, dataDir, port: 0, seedDemo: false }, {}), {
      log: createLogger({ logLevel: 'silent' }),
    });
    servers.push(s);
    return s;
  };

  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const t of dbs) await t.close();
    for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
  });

  it("two serves with different data dirs on one database verify each other's tokens", async () => {
    const t = await freshDb();
    const [a, b] = [await serve(t.url, await tmpDir()), await serve(t.url, await tmpDir())];
    const { key } = await createApiKey(t.db.db, 'acme', 'prod');
    for (const [minter, verifier] of [
      [a, b],
      [b, a],
    ]) {
      const minted = await fetch(`${minter.url}/auth/render-session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scopes: ['data:read'] }),
      });
      expect(minted.status).toBe(200);
      const token = ((await minted.json()) as { session_token: string }).session_token;
      const used = await fetch(`${verifier.url}/available-parts?category=GPU`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(used.status).toBe(200);
    }
  });

  it('is created once when many processes start together', async () => {
    const t = await freshDb();
    const secrets = await Promise.all(
      Array.from({ length: 6 }, async () =>
        resolveSigningSecret(loadConfig({ databaseUrl: t.url, dataDir: await tmpDir() }, {}), t.db.db),
      ),
    );
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0].length).toBeGreaterThanOrEqual(32);
  });

  it("a configured RENDER_FARM_SIGNING_SECRET wins over the database's", async () => {
    const t = await freshDb();
    const shared = await resolveSigningSecret(loadConfig({ databaseUrl: t.url, dataDir: await tmpDir() }, {}), t.db.db);
    const configured = 'configured-secret-'.padEnd(48, 'z');
    const cfg = loadConfig({ databaseUrl: t.url, dataDir: await tmpDir() }, { RENDER_FARM_SIGNING_SECRET: configured });
    expect(await resolveSigningSecret(cfg, t.db.db)).toBe(configured);
    expect(shared).not.toBe(configured);
  });

  it("a data dir's existing secret file becomes the shared secret of a database that has none", async () => {
    const t = await freshDb();
    const legacyDir = await tmpDir();
    const legacy = 'secret-from-an-older-version-'.padEnd(64, 'q');
    await fs.writeFile(path.join(legacyDir, SECRET_FILE), legacy + '\n', { mode: 0o600 });
    expect(await resolveSigningSecret(loadConfig({ databaseUrl: t.url, dataDir: legacyDir }, {}), t.db.db)).toBe(
      legacy,
    );
    // every other process on that database now signs with it
    expect(await resolveSigningSecret(loadConfig({ databaseUrl: t.url, dataDir: await tmpDir() }, {}), t.db.db)).toBe(
      legacy,
    );
  });
});
