/**
 * The hot path's database round trips, counted exactly on a real server and PostgreSQL: a
 * cache-hit submit of a parts map this process has seen is one statement (check the remembered
 * parts against the catalog, find the render, record the request for retention, find or create
 * the job), a poll is one statement (the job and, at most once a minute, the retention touch). A change that adds a statement fails here; bench:api measures
 * what each costs.
 */
import jwt from 'jsonwebtoken';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { watchQueries } from '../../src/db/watch-queries.js';
import { submitRender } from '../../src/jobs/submit.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { mintSession, useTestApi } from '../helpers/api.js';

describe('hot path round trips', () => {
  const api = useTestApi();
  const body = { parts: DEMO_BUILDS[0].parts, format: 'sprite', width: 256, height: 256, profile: 'fast' };
  let token: string;
  let kid: string;
  let jobId: string;
  let renderId: string;

  /** The statements one request sends, with the key's revocation state cached (or not). */
  async function statements(request: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    // the serve's webhook delivery runner polls graphile's queue through the same pool, on its own clock
    const stop = watchQueries(
      api.t.db.pool,
      (text) => /graphile_worker"?\._private/.test(text) || seen.push(text.replace(/\s+/g, ' ').trim()),
    );
    try {
      await request();
    } finally {
      stop();
    }
    return seen;
  }
  /** What the auth caches hold between requests of one key (src/auth/auth-caches.ts): answered without a read. */
  const keyStateCached = () => api.server.ctx.authCaches.keyRevoked.set(kid, false, Date.now() + 3_600_000);
  const submit = async (t = token) => {
    const res = await api.call('POST', '/render-build', { token: t, body });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ job_id: jobId, status: 'completed', cached: true });
  };
  const poll = async () => {
    const res = await api.call('GET', `/render-build/${jobId}`, { token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      job_id: jobId,
      status: 'completed',
      sprite_url: expect.stringContaining('sprite.webp'),
    });
  };
  const lastRequested = async () =>
    new Date(
      (
        await api.t.db.db
          .selectFrom('renders')
          .select('last_requested_at')
          .where('id', '=', renderId)
          .executeTakeFirstOrThrow()
      ).last_requested_at,
    ).getTime();
  const requestedMinutesAgo = (minutes: number) =>
    sql`UPDATE renders SET last_requested_at = now() - make_interval(mins => ${minutes}) WHERE id = ${renderId}`.execute(
      api.t.db.db,
    );
  /** `request`, made when the last request is 5 min old: one statement, which records this request too. */
  const expectOneStatementThatTouches = async (request: () => Promise<unknown>) => {
    await requestedMinutesAgo(5);
    const before = await lastRequested();
    keyStateCached();
    const sent = await statements(request);
    expect(sent, sent.join('\n')).toHaveLength(1);
    expect(await lastRequested()).toBeGreaterThan(before);
  };
  /** the job row's version: a repeated hit must not rewrite it (a write is a WAL flush and a row lock per request) */
  const jobVersion = async () =>
    (await sql<{ v: string }>`SELECT xmin::text AS v FROM jobs WHERE id = ${jobId}`.execute(api.t.db.db)).rows[0]!.v;

  beforeAll(async () => {
    token = await mintSession(api);
    kid = (jwt.decode(token) as { kid: string }).kid;
    const first = await api.call('POST', '/render-build', { token, body });
    expect(first.status).toBe(202);
    jobId = first.json.job_id;
    renderId = (
      await api.t.db.db.selectFrom('jobs').select('render_id').where('id', '=', jobId).executeTakeFirstOrThrow()
    ).render_id;
    await api.t.db.db
      .updateTable('renders')
      .set({
        status: 'completed',
        progress: 1,
        artifacts: JSON.stringify({ sprite: 'renders/aa/hot/sprite.webp', screenshot: 'renders/aa/hot/hero.webp' }),
        finished_at: new Date(),
      })
      .where('id', '=', renderId)
      .execute();
  });

  it('a cache-hit submit: one statement, with no write when the job exists and the touch is not due', async () => {
    keyStateCached();
    await submit();
    const version = await jobVersion();
    keyStateCached();
    const sent = await statements(submit);
    expect(sent, sent.join('\n')).toHaveLength(1);
    expect(sent[0]).toMatch(
      /^WITH f AS \( SELECT count\(\*\) = \$1 AS ok FROM parts p .* r AS \(SELECT \* FROM renders WHERE cache_key = \$\d+/,
    );
    expect(await jobVersion()).toBe(version);
  });

  it('a part changed since the map was remembered: the parts looked up again and the new key asked for (no stale hit)', async () => {
    const part = DEMO_BUILDS[0].parts.CPU![0]!;
    await sql`UPDATE parts SET version = version + 1 WHERE id = ${part}`.execute(api.t.db.db);
    try {
      keyStateCached();
      let res: { status: number; json: any } | undefined;
      const sent = await statements(async () => (res = await api.call('POST', '/render-build', { token, body })));
      // the checked statement (stale), the parts, the statement again (no render of the new key), then the new render's transaction
      expect(
        sent.slice(0, 3).map((s) => s.slice(0, 14)),
        sent.join('\n'),
      ).toEqual(['WITH f AS ( SE', 'select "p"."id', 'WITH f AS ( SE']);
      expect(res).toMatchObject({ status: 202, json: { status: 'processing' } });
      expect(res!.json.job_id).not.toBe(jobId);
    } finally {
      await sql`UPDATE parts SET version = version - 1 WHERE id = ${part}`.execute(api.t.db.db);
    }
    // back to the old versions: the old render answers again (the map resolved once more)
    keyStateCached();
    await submit();
    keyStateCached();
    expect(await statements(submit)).toHaveLength(1);
  });

  it('a cache-hit submit records the request for retention in that same statement', async () => {
    await expectOneStatementThatTouches(submit);
  });

  it('a cache hit by another token of the customer answers its job; by a new customer, creates its job in that same one statement', async () => {
    const other = await mintSession(api);
    api.server.ctx.authCaches.keyRevoked.set((jwt.decode(other) as { kid: string }).kid, false, Date.now() + 3_600_000);
    const sent = await statements(() => submit(other));
    expect(sent, sent.join('\n')).toHaveLength(1);

    const { key } = await createApiKey(api.t.db.db, 'globex', 'prod');
    const res = await api.call('POST', '/auth/render-session', { token: key, body: {} });
    const globex = res.json.session_token as string;
    api.server.ctx.authCaches.keyRevoked.set(
      (jwt.decode(globex) as { kid: string }).kid,
      false,
      Date.now() + 3_600_000,
    );
    let created: { status: number; json: any } | undefined;
    const sentNew = await statements(
      async () => (created = await api.call('POST', '/render-build', { token: globex, body })),
    );
    expect(created).toMatchObject({ status: 200, json: { status: 'completed', cached: true } });
    expect(created!.json.job_id).not.toBe(jobId);
    expect(sentNew, sentNew.join('\n')).toHaveLength(1);
  });

  it('a cache-hit submit whose key state is not cached reads it once more', async () => {
    api.server.ctx.authCaches.keyRevoked.set(kid, false, 0); // expired long ago
    const sent = await statements(submit);
    expect(sent, sent.join('\n')).toHaveLength(2);
    expect(sent[0]).toMatch(/from "api_keys"/);
  });

  it('a poll: one statement, the retention touch folded in when due', async () => {
    keyStateCached();
    await poll();
    keyStateCached();
    expect(await statements(poll)).toHaveLength(1);

    // the touch is part of the answered statement: nothing left running after the response
    await expectOneStatementThatTouches(poll);
  });

  it('a poll of an unknown job: the lookup and the expired-jobs check', async () => {
    keyStateCached();
    const sent = await statements(async () =>
      expect((await api.call('GET', '/render-build/00000000-0000-4000-8000-000000000000', { token })).status).toBe(404),
    );
    expect(sent, sent.join('\n')).toHaveLength(2);
  });
});

describe('the cache-hit statement and share codes', () => {
  const api = useTestApi();

  it('records a share code on an existing job that lacks one, keeps the first, and answers the same job each time', async () => {
    const customerId = (await api.t.db.db.selectFrom('api_keys').select('customer_id').executeTakeFirstOrThrow())
      .customer_id;
    const input = {
      customerId,
      parts: DEMO_BUILDS[1].parts,
      state: null,
      options: resolveRenderOptions({ format: 'sprite', cameraZoom: 1.93 }),
    };
    const first = await submitRender(api.t.db, input);
    expect(first.outcome).toBe('new');
    const shareCode = async () =>
      (
        await api.t.db.db
          .selectFrom('jobs')
          .select('share_code')
          .where('id', '=', first.jobId)
          .executeTakeFirstOrThrow()
      ).share_code;
    expect(await shareCode()).toBeNull();

    const again = await submitRender(api.t.db, input);
    expect(again).toMatchObject({ jobId: first.jobId, outcome: 'reused' });
    expect(await shareCode()).toBeNull();

    const shared = await submitRender(api.t.db, { ...input, shareCode: DEMO_BUILDS[1].shareCode });
    expect(shared).toMatchObject({ jobId: first.jobId, outcome: 'reused' });
    expect(await shareCode()).toBe(DEMO_BUILDS[1].shareCode);

    // the first share code stays; a submission without one leaves it
    expect((await submitRender(api.t.db, { ...input, shareCode: DEMO_BUILDS[2].shareCode })).jobId).toBe(first.jobId);
    expect((await submitRender(api.t.db, input)).jobId).toBe(first.jobId);
    expect(await shareCode()).toBe(DEMO_BUILDS[1].shareCode);
  });
});
