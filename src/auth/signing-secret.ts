/**
 * The HS256 signing secret: from config, or generated once into the data dir (mode 0600) so
 * that every local process (serve, up, token) signs with the same key.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describeSetting, type Config } from '../config.js';
import { ensureDir } from '../ensure-dir.js';

export const SECRET_FILE = 'signing-secret';

export async function resolveSigningSecret(cfg: Config): Promise<string> {
  if (cfg.signingSecret) return cfg.signingSecret;
  const file = path.join(cfg.dataDir, SECRET_FILE);
  try {
    const existing = (await fs.readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not there yet
  }
  await ensureDir(cfg.dataDir, describeSetting(cfg, 'dataDir', 'data dir'));
  const secret = randomBytes(48).toString('base64url');
  try {
    // 'wx' so two processes starting together cannot overwrite each other's secret
    await fs.writeFile(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    return (await fs.readFile(file, 'utf8')).trim();
  }
}
