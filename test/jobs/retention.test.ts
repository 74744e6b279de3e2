/**
 * Storage lifecycle on a real database and real stores (the filesystem store and S3 through
 * s3rver): renders completed with real files, aged by moving their times back, swept; a later
 * identical submission renders again; recent, in-flight, pregenerated and model files stay.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type S3rver from 's3rver';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { storePolicy, sweepArtifacts, type StorePolicy } from '../../src/jobs/artifact-retention.js';
import { holderOf } from '../../src/jobs/claim-fence.js';
import { EXPIRED_MESSAGE } from '../../src/jobs/render-expiry.js';
import { claimRender, completeRender } from '../../src/jobs/render-lifecycle.js';
import { submitRender } from '../../src/jobs/submit.js';
import { storeUsage } from '../../src/jobs/store-usage.js';
import { FsArtifactStore } from '../../src/storage/fs-store.js';
import { S3ArtifactStore } from '../../src/storage/s3-store.js';
import { modelArtifactKey, pregenArtifactKey, renderArtifactKey } from '../../src/storage/artifact-key.js';
import type { ArtifactStore } from '../../src/storage/artifact-store.js';
import { useQueueDb } from '../helpers/queue-db.js';
import { startS3rver } from '../helpers/s3-server.js';

const BUCKET = 'rf-retention';

let tmp: string;
let s3: S3rver;
const stores: Record<'fs' | 's3', ArtifactStore> = {} as Record<'fs' | 's3', ArtifactStore>;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-retention-'));
  const started = await startS3rver(tmp, BUCKET);
  s3 = started.server;
  const { port } = started;
  stores.fs = await FsArtifactStore.open(path.join(tmp, 'fs'));
  stores.s3 = new S3ArtifactStore({
    bucket: BUCKET,
    prefix: 'farm',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    presignSeconds: 600,
  });
});

afterAll(async () => {
  await s3?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

async function keysUnder(store: ArtifactStore, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const a of store.list(prefix)) out.push(a.key);
  return out.sort();
}

describe.each(['fs', 's3'] as const)('artifact store list and deleteMany (%s)', (kind) => {
  it('lists past one page and deletes in batches of 1000, ignoring keys that are not there', async () => {
    const store = stores[kind];
    const keys = Array.from({ length: 1003 }, (_, i) => `renders/zz/bulk-${kind}/${String(i).padStart(4, '0')}.bin`);
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(
        keys.slice(i, i + 50).map((k) => store.putBuffer(k, Buffer.from([1, 2, 3]), 'application/octet-stream')),
      );
    await store.putBuffer('thumbnails/p1/1.webp', Buffer.from([9]), 'image/webp');
    const listed = [];
    for await (const a of store.list(`renders/zz/bulk-${kind}/`)) listed.push(a);
    expect(listed).toHaveLength(1003);
    expect(listed.every((a) => a.size === 3)).toBe(true);
    await store.deleteMany([...keys, `renders/zz/bulk-${kind}/never-written.bin`]);
    expect(await keysUnder(store, `renders/zz/bulk-${kind}/`)).toEqual([]);
    expect(await store.stat('thumbnails/p1/1.webp')).not.toBeNull();
  });
});

describe.each(['fs', 's3'] as const)('artifact retention (%s store)', (kind) => {
  const t = useQueueDb();
  let customerId: string;
  const store = () => stores[kind];
  const parts = () => DEMO_BUILDS[0].parts as Record<string, string[]>;
  /** distinct requests: the zoom makes each a distinct cache key */
  let zoom = 1.0;

  beforeAll(async () => {
    customerId = (await ensureCustomer(t.db.db, 'acme')).id;
    // a webhook, so that a status change that notifies would show as a delivery row
    await t.db.db
      .insertInto('webhooks')
      .values({ customer_id: customerId, url: 'https://example.test/hook', secret: 's'.repeat(32) })
      .execute();
  });

  /** A submitted render completed with two real files of `bytes` in all, requested and finished `idleMinutes` ago. */
  async function completed(bytes: number, idleMinutes: number) {
    zoom += 0.01;
    const s = await submitRender(t.db, {
      customerId,
      parts: parts(),
      state: null,
      options: { format: 'sprite', cameraZoom: Number(zoom.toFixed(2)) },
    });
    const claimed = await claimRender(t.db.db, s.render.id, { workerId: 'w-test', lockedBy: null });
    const sprite = renderArtifactKey(s.render.cache_key, 'sprite.webp');
    const hero = renderArtifactKey(s.render.cache_key, 'hero.webp');
    await store().putBuffer(sprite, Buffer.alloc(bytes - 10, 7), 'image/webp');
    await store().putBuffer(hero, Buffer.alloc(10, 8), 'image/webp');
    await completeRender(t.db.db, s.render.id, holderOf(claimed!), {
      artifacts: { sprite, screenshot: hero },
      spriteLayout: null,
      backend: 'test',
      framesPerSecond: 1,
      renderMs: 1,
      bytes,
    });
    await age(s.render.id, idleMinutes);
    return { ...s, keys: [sprite, hero], zoom: Number(zoom.toFixed(2)) };
  }

  async function age(renderId: string, minutes: number) {
    await sql`UPDATE renders SET last_requested_at = now() - make_interval(mins => ${minutes}), finished_at = now() - make_interval(mins => ${minutes})
               WHERE id = ${renderId}`.execute(t.db.db);
  }

  const row = (id: string) => t.db.db.selectFrom('renders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const policy = (p: Partial<StorePolicy>): StorePolicy => ({ ...storePolicy(t.cfg), ...p });

  it('sweeps a render idle past the age limit: files deleted, the render expired, the store total down; an identical request renders it again', async () => {
    const old = await completed(1000, 40 * 24 * 60);
    const fresh = await completed(1000, 2 * 24 * 60);
    const before = await storeUsage(t.db);
    expect(before.renderBytes).toBeGreaterThanOrEqual(2000);

    const r = await sweepArtifacts(t.db, store(), policy({ maxAgeDays: 30, maxBytes: 0 }));
    expect(r.renders.map((x) => x.id)).toEqual([old.render.id]);
    expect(r.renders[0]!.reason).toBe('age');
    expect(r.deletedFiles).toBe(2);
    for (const k of old.keys) expect(await store().stat(k)).toBeNull();
    for (const k of fresh.keys) expect(await store().stat(k)).not.toBeNull();
    const gone = await row(old.render.id);
    expect(gone).toMatchObject({ status: 'error', error: EXPIRED_MESSAGE, artifacts: null, artifact_bytes: null });
    expect(gone.expired_at).not.toBeNull();
    const after = await storeUsage(t.db);
    expect(before.renderBytes - after.renderBytes).toBe(1000);
    expect(after.sweptRenders - before.sweptRenders).toBe(1);
    // expiry is not a failure: completion notified, expiry did not
    const events = async (e: string) =>
      Number((await t.db.pool.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE event = $1`, [e])).rows[0].n);
    expect(await events('job.completed')).toBeGreaterThan(0);
    expect(await events('job.error')).toBe(0);

    // the same request again: the render is reopened and queued, same row, same job
    const again = await submitRender(t.db, {
      customerId,
      parts: parts(),
      state: null,
      options: { format: 'sprite', cameraZoom: old.zoom },
    });
    expect(again.render.id).toBe(old.render.id);
    expect(again.outcome).toBe('new');
    expect(again.jobId).toBe(old.jobId);
    const reopened = await row(old.render.id);
    expect(reopened).toMatchObject({ status: 'queued', expired_at: null, artifacts: null });
    expect(Date.now() - new Date(reopened.last_requested_at).getTime()).toBeLessThan(60_000);
    const queued = await t.db.pool.query(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE key = $1`, [
      `render:${old.render.id}`,
    ]);
    expect(Number(queued.rows[0].n)).toBe(1);
  });

  it('keeps the store under the byte budget, least recently requested first, and never touches recent, in-flight, pregen or model files', async () => {
    // what earlier tests left counts too: sweep it first so the budget below is about these renders
    await sweepArtifacts(t.db, store(), policy({ maxBytes: 1, keepRecentMinutes: 0, maxAgeDays: 0 }));
    const oldest = await completed(3000, 300);
    const middle = await completed(3000, 200);
    const newest = await completed(3000, 100);
    // finished 10 minutes ago: inside the one-hour window, kept whatever the budget
    const recent = await completed(3000, 10);
    const inFlight = await submitRender(t.db, {
      customerId,
      parts: parts(),
      state: null,
      options: { format: 'sprite', cameraZoom: 1.99 },
    });
    await claimRender(t.db.db, inFlight.render.id, { workerId: 'w-test', lockedBy: null });
    await sql`UPDATE renders SET last_requested_at = now() - interval '10 days' WHERE id = ${inFlight.render.id}`.execute(
      t.db.db,
    );
    const pregenKey = pregenArtifactKey('a'.repeat(64), 'sprite');
    const modelKey = modelArtifactKey('b'.repeat(64));
    await store().putBuffer(pregenKey, Buffer.alloc(5000), 'image/webp');
    await store().putBuffer(modelKey, Buffer.alloc(5000), 'model/gltf-binary');

    // 12000 bytes of renders against a 7000 byte budget: the two least recently requested go
    const dry = await sweepArtifacts(t.db, store(), policy({ maxBytes: 7000, maxAgeDays: 0, keepRecentMinutes: 60 }), {
      dryRun: true,
    });
    expect(dry.renders.map((r) => r.id)).toEqual([oldest.render.id, middle.render.id]);
    expect(dry.renders.every((r) => r.reason === 'budget')).toBe(true);
    expect((await row(oldest.render.id)).status).toBe('completed');
    expect(await store().stat(oldest.keys[0]!)).not.toBeNull();

    const r = await sweepArtifacts(t.db, store(), policy({ maxBytes: 7000, maxAgeDays: 0, keepRecentMinutes: 60 }), {
      batch: 1,
    });
    expect(r.renders.map((x) => x.id)).toEqual([oldest.render.id, middle.render.id]);
    expect(r.bytesAfter).toBe(6000);
    for (const k of [...oldest.keys, ...middle.keys]) expect(await store().stat(k)).toBeNull();
    for (const k of [...newest.keys, ...recent.keys, pregenKey, modelKey]) expect(await store().stat(k)).not.toBeNull();
    expect((await row(newest.render.id)).status).toBe('completed');
    expect((await row(recent.render.id)).status).toBe('completed');
    expect((await row(inFlight.render.id)).status).toBe('processing');

    // a budget below what the recent render holds: it still stays (finished within the hour)
    const tight = await sweepArtifacts(t.db, store(), policy({ maxBytes: 1, maxAgeDays: 0, keepRecentMinutes: 60 }));
    expect(tight.renders.map((x) => x.id)).toEqual([newest.render.id]);
    expect((await row(recent.render.id)).status).toBe('completed');
  });

  it('finishes deleting the files of renders expired by a pass that stopped before deleting them', async () => {
    const r = await completed(500, 60 * 24 * 60);
    // expired, keys kept: what a crash between the two steps leaves
    await sql`UPDATE renders SET status = 'error', expired_at = now(), error = 'x' WHERE id = ${r.render.id}`.execute(
      t.db.db,
    );
    const sweep = await sweepArtifacts(t.db, store(), policy({ maxAgeDays: 0, maxBytes: 0 }));
    expect(sweep.deletedFiles).toBe(2);
    for (const k of r.keys) expect(await store().stat(k)).toBeNull();
    expect((await row(r.render.id)).artifacts).toBeNull();
  });
});
