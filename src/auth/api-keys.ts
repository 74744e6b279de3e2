/**
 * Long-lived API keys: `rfk_<env>_<43 random base64url chars>`. Only a SHA-256 of the key is
 * stored (the key has 256 bits of entropy, so a slow hash would add nothing); the first
 * characters are kept as a prefix so operators can tell keys apart.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ensureCustomer } from './customers.js';
import type { Environment } from './scopes.js';

export const API_KEY_PATTERN = /^rfk_(prod|staging)_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 16;

export interface ApiKeyRecord {
  id: string;
  customerId: string;
  customerName: string;
  environment: Environment;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** an admin key (`keys create --admin`): carries models:write on top of the token scopes */
  admin: boolean;
  /** may sign in to the web console (`keys create --console`; admin keys may anyway) */
  console: boolean;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith('rfk_');
}

/** Creates the customer when new; returns the key in clear text, once. `admin`: an admin key (models:write); `console`: may sign in to the web console. */
export async function createApiKey(
  db: Kysely<Database>,
  customerName: string,
  environment: Environment = 'prod',
  opts: { admin?: boolean; console?: boolean } = {},
): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = `rfk_${environment}_${randomBytes(32).toString('base64url')}`;
  return db.transaction().execute(async (trx) => {
    const customer = await ensureCustomer(trx, customerName);
    const row = await trx
      .insertInto('api_keys')
      .values({
        customer_id: customer.id,
        environment,
        prefix: key.slice(0, PREFIX_LENGTH),
        key_hash: hashApiKey(key),
        admin: opts.admin ?? false,
        console: opts.console ?? false,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      key,
      record: {
        id: row.id,
        customerId: customer.id,
        customerName: customer.name,
        environment: row.environment,
        prefix: row.prefix,
        createdAt: new Date(row.created_at),
        revokedAt: row.revoked_at,
        lastUsedAt: row.last_used_at,
        admin: row.admin,
        console: row.console,
      },
    };
  });
}

function selectKeys(db: Kysely<Database>) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('customers as c', 'c.id', 'k.customer_id')
    .select([
      'k.id as id',
      'k.customer_id as customerId',
      'c.name as customerName',
      'k.environment as environment',
      'k.prefix as prefix',
      'k.created_at as createdAt',
      'k.revoked_at as revokedAt',
      'k.last_used_at as lastUsedAt',
      'k.admin as admin',
      'k.console as console',
    ]);
}

export async function listApiKeys(db: Kysely<Database>): Promise<ApiKeyRecord[]> {
  return (await selectKeys(db).orderBy('k.created_at').execute()) as ApiKeyRecord[];
}

/** Finds the record of a presented key (revoked keys included: the caller decides). */
export async function findApiKey(db: Kysely<Database>, key: string): Promise<ApiKeyRecord | null> {
  if (!API_KEY_PATTERN.test(key)) return null;
  const row = await selectKeys(db).where('k.key_hash', '=', hashApiKey(key)).executeTakeFirst();
  return (row as ApiKeyRecord | undefined) ?? null;
}

/** True when the key with this id is revoked or no longer exists (its tokens must stop working). */
export async function isApiKeyRevoked(db: Kysely<Database>, id: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return true;
  const row = await db.selectFrom('api_keys').select('revoked_at').where('id', '=', id).executeTakeFirst();
  return !row || row.revoked_at !== null;
}

/** Revokes by id or by prefix; returns the record, or null when no key matched. */
export async function revokeApiKey(db: Kysely<Database>, idOrPrefix: string): Promise<ApiKeyRecord | null> {
  const isUuid = /^[0-9a-f-]{36}$/i.test(idOrPrefix);
  const matches = await selectKeys(db)
    .where(
      isUuid ? 'k.id' : 'k.prefix',
      isUuid ? '=' : 'like',
      isUuid ? idOrPrefix : `${idOrPrefix.replace(/[%_\\]/g, '\\$&')}%`,
    )
    .execute();
  if (matches.length !== 1) {
    if (matches.length > 1) throw new Error(`"${idOrPrefix}" matches ${matches.length} keys: give the key id`);
    return null;
  }
  await db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id', '=', matches[0].id)
    .where('revoked_at', 'is', null)
    .execute();
  return (await selectKeys(db).where('k.id', '=', matches[0].id).executeTakeFirst()) as ApiKeyRecord;
}

/** Records use, at most about once a minute per key, so auth stays a single read. */
export async function touchApiKey(db: Kysely<Database>, rec: ApiKeyRecord): Promise<void> {
  if (rec.lastUsedAt && Date.now() - new Date(rec.lastUsedAt).getTime() < 60_000) return;
  await db.updateTable('api_keys').set({ last_used_at: sql<Date>`now()` }).where('id', '=', rec.id).execute();
}

/** Lets an existing key sign in to the web console (the demo key of `up`, made before the console existed). */
export async function grantConsole(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('api_keys').set({ console: true }).where('id', '=', id).execute();
}
