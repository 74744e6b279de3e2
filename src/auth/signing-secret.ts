/**
 * The HS256 signing secret of session tokens. Precedence:
 * 1. `RENDER_FARM_SIGNING_SECRET` (config), when set: it wins; set the same on every serve.
 * 2. Otherwise the database's (table `settings`), created once by the first process that needs
 *    it, so every serve and `token` on a shared database agree with no setup. When the
 *    database has none yet and this data dir holds a secret file from an older version, that
 *    secret is the one stored, so tokens already handed out stay valid.
 * A data dir's secret file is otherwise no longer read (it can be deleted).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { getOrCreateSetting } from '../db/settings.js';

/** where versions before the shared secret kept it, per data dir */
export const SECRET_FILE = 'signing-secret';
export const SIGNING_SECRET_SETTING = 'signing_secret';

export async function resolveSigningSecret(cfg: Config, db: Kysely<Database>): Promise<string> {
  if (cfg.signingSecret) return cfg.signingSecret;
  return getOrCreateSetting(
    db,
    SIGNING_SECRET_SETTING,
    async () => (await legacyFileSecret(cfg.dataDir)) ?? randomBytes(48).toString('base64url'),
  );
}

async function legacyFileSecret(dataDir: string): Promise<string | null> {
  try {
    const existing = (await fs.readFile(path.join(dataDir, SECRET_FILE), 'utf8')).trim();
    return existing.length >= 32 ? existing : null;
  } catch {
    return null;
  }
}
