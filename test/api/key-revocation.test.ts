/**
 * Session tokens die with the API key that minted them: once the key is revoked (in the
 * shared database, by any process), every serve refuses its tokens within a few seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../src/auth/api-keys.js';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { createLogger } from '../../src/log.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { waitFor } from '../helpers/wait-for.js';

describe('revoking the key that minted a session token', () => {
  let api: TestApi;
  let db2: Db;
  let other: RunningServer;

  beforeAll(async () => {
    api = await startTestApi();
    // a second serve on the same database, as on another machine
    db2 = await openDatabase(api.t.cfg);
    other = await startServer(api.t.cfg, { db: db2, log: createLogger({ logLevel: 'silent' }) });
  });
  afterAll(async () => {
    await other?.close();
    await db2?.close();
    await api?.close();
  });

  const get = (base: string, token: string) =>
    fetch(`${base}/available-parts?category=GPU&limit=1`, { headers: { authorization: `Bearer ${token}` } }).then(
      async (r) => ({ status: r.status, json: await r.json() }),
    );

  it('refuses its tokens on every serve once the key is revoked', async () => {
    const { key, record } = await createApiKey(api.t.db.db, 'acme', 'prod');
    const mint = await api.call('POST', '/auth/render-session', {
      token: key,
      body: { scopes: ['data:read'], ttl_seconds: 300 },
    });
    const token = mint.json.session_token;
    const unrelated = (
      await api.call('POST', '/auth/render-session', { token: api.key, body: { scopes: ['data:read'] } })
    ).json.session_token;
    expect((await get(api.url, token)).status).toBe(200);

    await revokeApiKey(api.t.db.db, record.id);

    // the other serve has not seen the token yet: it asks the database and refuses at once
    const there = await get(other.url, token);
    expect(there.status).toBe(401);
    expect(there.json.error).toBe('revoked_key');
    // the serve that checked it before the revocation refuses once its short cache expires
    const status = await waitFor('the cached token to be refused', async () => (await get(api.url, token)).status, {
      until: (s) => s !== 200,
      timeoutMs: 15_000,
    });
    expect(status).toBe(401);
    // tokens of other keys are unaffected
    expect((await get(api.url, unrelated)).status).toBe(200);
    expect((await get(other.url, unrelated)).status).toBe(200);
  });
});
