/**
 * Row retention and last-requested tracking through the real API and database (no worker:
 * renders are made final by hand, and aged by moving their times back).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { installQueue } from '../../src/jobs/queue/runner.js';
import { sweepRows } from '../../src/jobs/row-retention.js';
import { submitRender } from '../../src/jobs/submit.js';
import { renderArtifactKey } from '../../src/storage/artifact-key.js';
import { isErrorBody, useTestApi } from '../helpers/api.js';
import { waitFor } from '../helpers/wait-for.js';

describe('row retention and last-requested tracking', () => {
  const api = useTestApi();
  const parts = DEMO_BUILDS[0].parts as Record<string, string[]>;
  let customerId: string;
  let zoom = 1;
  const db = () => api.t.db;

  beforeAll(async () => {
    await installQueue(db().pool);
    customerId = (await ensureCustomer(db().db, 'acme')).id;
  });

  /** A job on a new render, made final (`error`, no files), `days` old in every time it has. */
  async function oldJob(days: number) {
    zoom += 0.01;
    const s = await submitRender(db(), {
      customerId,
      parts,
      state: null,
      options: { format: 'sprite', cameraZoom: Number(zoom.toFixed(2)) },
    });
    await sql`UPDATE renders SET status = 'error', error = 'test' WHERE id = ${s.render.id}`.execute(db().db);
    const ago = sql`now() - make_interval(days => ${days})`;
    await sql`UPDATE renders SET created_at = ${ago}, finished_at = ${ago}, last_requested_at = ${ago}, updated_at = ${ago} WHERE id = ${s.render.id}`.execute(
      db().db,
    );
    await sql`UPDATE jobs SET created_at = ${ago} WHERE id = ${s.jobId}`.execute(db().db);
    await sql`UPDATE render_events SET created_at = ${ago} WHERE render_id = ${s.render.id}`.execute(db().db);
    return s;
  }

  const count = async (q: string, params: unknown[] = []) => Number((await db().pool.query(q, params)).rows[0].n);

  it('deletes jobs, renders, events and deliveries past the retention in batches, keeps recent rows, and a poll of a deleted job is 404 job_expired', async () => {
    const old: Awaited<ReturnType<typeof oldJob>>[] = [];
    for (let i = 0; i < 23; i++) old.push(await oldJob(40));
    const recent = [await oldJob(2), await oldJob(0)];
    const hook = await db()
      .db.insertInto('webhooks')
      .values({ customer_id: customerId, url: 'https://example.test/h', secret: 's'.repeat(32) })
      .returning('id')
      .executeTakeFirstOrThrow();
    // a delivery of a kept job that is itself old, and a recent one
    await db()
      .db.insertInto('webhook_deliveries')
      .values([
        {
          webhook_id: hook.id,
          job_id: recent[0]!.jobId,
          event: 'job.error',
          status: 'delivered',
          created_at: new Date(Date.now() - 40 * 86_400_000),
        },
        { webhook_id: hook.id, job_id: recent[1]!.jobId, event: 'job.error', status: 'delivered' },
      ])
      .execute();
    const oldIds = old.map((o) => o.jobId);
    const eventsOfOld = () =>
      count(`SELECT count(*) AS n FROM render_events WHERE render_id = ANY($1)`, [old.map((o) => o.render.id)]);
    expect(await eventsOfOld()).toBeGreaterThan(0);
    const recentEvents = await count(`SELECT count(*) AS n FROM render_events WHERE render_id = ANY($1)`, [
      recent.map((o) => o.render.id),
    ]);

    const policy = { rowRetentionDays: 30, jobTombstoneDays: 365 };
    const dry = await sweepRows(db(), policy, { dryRun: true, batch: 10 });
    expect(dry).toMatchObject({ jobs: 23, deliveries: 1, statements: 0 });
    expect(await count(`SELECT count(*) AS n FROM jobs WHERE id = ANY($1)`, [oldIds])).toBe(23);

    const r = await sweepRows(db(), policy, { batch: 10 });
    expect(r).toMatchObject({ jobs: 23, renders: 23, deliveries: 1 });
    // 23 jobs at 10 a statement: three statements for jobs alone (10, 10, 3), and as many for renders
    expect(r.statements).toBeGreaterThanOrEqual(6);
    expect(await count(`SELECT count(*) AS n FROM jobs WHERE id = ANY($1)`, [oldIds])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM renders WHERE id = ANY($1)`, [old.map((o) => o.render.id)])).toBe(0);
    expect(await eventsOfOld()).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM expired_jobs WHERE id = ANY($1)`, [oldIds])).toBe(23);
    // recent rows stay
    expect(await count(`SELECT count(*) AS n FROM jobs WHERE id = ANY($1)`, [recent.map((o) => o.jobId)])).toBe(2);
    expect(
      await count(`SELECT count(*) AS n FROM render_events WHERE render_id = ANY($1)`, [
        recent.map((o) => o.render.id),
      ]),
    ).toBe(recentEvents);
    expect(await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = $1`, [hook.id])).toBe(1);
    // a second pass finds nothing
    expect(await sweepRows(db(), policy, { batch: 10 })).toMatchObject({
      jobs: 0,
      renders: 0,
      events: 0,
      deliveries: 0,
    });

    // the deleted job's poll says it expired; a never-seen id and another customer's poll stay job_not_found
    const poll = await api.call('GET', `/render-build/${oldIds[0]}`, { token: api.key });
    expect(poll.status).toBe(404);
    expect(isErrorBody(poll.json)).toBe(true);
    expect(poll.json.error).toBe('job_expired');
    expect(poll.json.message).toMatch(/expired.*submit the same request again/);
    const unknown = await api.call('GET', `/render-build/${randomUUID()}`, { token: api.key });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe('job_not_found');
    const { key: other } = await createApiKey(db().db, 'globex', 'prod');
    expect((await api.call('GET', `/render-build/${oldIds[0]}`, { token: other })).json.error).toBe('job_not_found');
    // the event stream answers the same
    expect((await api.call('GET', `/render-build/${oldIds[1]}/events`, { token: api.key })).json.error).toBe(
      'job_expired',
    );

    // tombstones go after their own period
    await sql`UPDATE expired_jobs SET expired_at = now() - interval '400 days' WHERE id = ${oldIds[0]}`.execute(
      db().db,
    );
    expect((await sweepRows(db(), policy, { batch: 10 })).tombstones).toBe(1);
    expect((await api.call('GET', `/render-build/${oldIds[0]}`, { token: api.key })).json.error).toBe('job_not_found');
  });

  it('records the last request of a render on a poll, a submit cache hit and an /artifacts read, at most once a minute', async () => {
    const token = api.key;
    const body = { parts, format: 'sprite', cameraZoom: 1.77 };
    const s = await api.call('POST', '/render-build', { token, body });
    expect(s.status).toBe(202);
    const renderId = (
      await db().db.selectFrom('jobs').select('render_id').where('id', '=', s.json.job_id).executeTakeFirstOrThrow()
    ).render_id;
    const lastRequested = async () =>
      new Date(
        (
          await db()
            .db.selectFrom('renders')
            .select('last_requested_at')
            .where('id', '=', renderId)
            .executeTakeFirstOrThrow()
        ).last_requested_at,
      ).getTime();
    const makeOld = () =>
      sql`UPDATE renders SET last_requested_at = now() - interval '5 days' WHERE id = ${renderId}`.execute(db().db);
    const recentEnough = (t: number) => Date.now() - t < 60_000;

    await makeOld();
    expect(recentEnough(await lastRequested())).toBe(false);
    expect((await api.call('GET', `/render-build/${s.json.job_id}`, { token })).status).toBe(200);
    await waitFor('the poll to record the request', lastRequested, {
      until: recentEnough,
      timeoutMs: 10_000,
      show: (t) => new Date(t).toISOString(),
    });

    // within the minute, a poll writes nothing: the time stays where it was
    await sql`UPDATE renders SET last_requested_at = now() - interval '30 seconds' WHERE id = ${renderId}`.execute(
      db().db,
    );
    const before = await lastRequested();
    await api.call('GET', `/render-build/${s.json.job_id}`, { token });
    await api.call('POST', '/render-build', { token, body });
    expect(await lastRequested()).toBe(before);

    // the submit's statement records it (a reuse here; a cache hit takes the same statement)
    await makeOld();
    const again = await api.call('POST', '/render-build', { token, body });
    expect(again.json.job_id).toBe(s.json.job_id);
    expect(recentEnough(await lastRequested())).toBe(true);

    // a read of one of its files through /artifacts
    await makeOld();
    const key = renderArtifactKey(
      (await db().db.selectFrom('renders').select('cache_key').where('id', '=', renderId).executeTakeFirstOrThrow())
        .cache_key,
      'sprite.webp',
    );
    await api.server.ctx.store.putBuffer(key, Buffer.from('RIFF'), 'image/webp');
    const got = await fetch(`${api.url}/artifacts/${key}`);
    expect(got.status).toBe(200);
    await waitFor('the artifact read to record the request', lastRequested, {
      until: recentEnough,
      timeoutMs: 10_000,
      show: (t) => new Date(t).toISOString(),
    });
  });
});
