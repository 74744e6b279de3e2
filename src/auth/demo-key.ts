/**
 * The demo API key printed by `up`. Keys are stored hashed, so the clear key is kept in the
 * data dir (0600) to print the same one on every start; a revoked one is replaced.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ensureDir } from '../ensure-dir.js';
import { createApiKey, findApiKey, grantConsole } from './api-keys.js';

export const DEMO_CUSTOMER = 'demo';

export async function demoApiKey(db: Kysely<Database>, dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'demo-api-key');
  try {
    const key = (await fs.readFile(file, 'utf8')).trim();
    const rec = await findApiKey(db, key);
    if (rec && !rec.revokedAt) {
      // the demo key signs in to the web console too (a key from before the console gets it now)
      if (!rec.console) await grantConsole(db, rec.id);
      return key;
    }
  } catch {
    // none yet
  }
  const { key } = await createApiKey(db, DEMO_CUSTOMER, 'prod', { console: true });
  await ensureDir(dataDir, 'data dir');
  await fs.writeFile(file, key + '\n', { mode: 0o600 });
  return key;
}
