/**
 * A worker process rides out a PostgreSQL outage: the database (its own embedded server, so
 * other test files are untouched) stops mid-render and stays down past the end of the render;
 * the worker keeps the result, survives, and records it once the database is back.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { resolveBuildParts } from '../../src/catalog/resolve-build.js';
import { seedDemoCatalog } from '../../src/catalog/seed-demo.js';
import { cacheKey } from '../../src/jobs/cache-key.js';
import { rendererVersion } from '../../src/render/renderer-version.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/db/database.js';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../src/db/embedded.js';
import { freePort } from '../../src/db/free-port.js';
import { normaliseRequest } from '../../src/model/render-request.js';
import { enqueue } from '../../src/jobs/queue/add-job.js';
import { installQueue } from '../../src/jobs/queue/runner.js';
import { startWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/log.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { renderArtifactKey as artifactKey } from '../../src/storage/artifact-key.js';
import { submitRender } from '../../src/jobs/submit.js';
import { chunkPieceKeys } from '../../src/jobs/render-files.js';
import { valueWithin } from '../helpers/time-bounds.js';
import { waitFor } from '../helpers/wait-for.js';
import { spawnWorker, type WorkerChild } from '../helpers/worker-process.js';

/** how long the database stays down after the render has finished (the issue's restart took 30 s) */
const DOWN_AFTER_RENDER_MS = 30_000;

describe('database outage during a render', () => {
  let pgDir: string;
  let workerDir: string;
  let port: number;
  let pg: EmbeddedPostgresHandle;
  let db: Db;
  let cfg: Config;
  let url: string;
  let customerId: string;
  let worker: WorkerChild | null = null;
  const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;

  const renderRow = (id: string) =>
    db.db.selectFrom('renders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const queueJobs = async () =>
    Number((await db.pool.query('SELECT count(*)::int AS n FROM graphile_worker.jobs')).rows[0].n);

  beforeAll(async () => {
    pgDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-outage-pg-'));
    await fs.chmod(pgDir, 0o755);
    workerDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-outage-worker-'));
    port = await freePort();
    pg = await startEmbeddedPostgres(pgDir, port);
    url = pg.connectionString('postgres');
    cfg = loadConfig({ databaseUrl: url, dataDir: workerDir }, {});
    db = await openDatabase(cfg, { migrate: true });
    await installQueue(db.pool);
    await seedDemoCatalog(db);
    customerId = (await ensureCustomer(db.db, 'acme')).id;
  }, 120_000);
  afterAll(async () => {
    worker?.proc.kill('SIGKILL');
    await worker?.exited;
    await db?.close();
    await pg?.stop();
    await fs.rm(pgDir, { recursive: true, force: true });
    await fs.rm(workerDir, { recursive: true, force: true });
  });

  it('keeps the rendered result, survives, and completes the job when PostgreSQL is back', async () => {
    // the whole-render path (a split render's chunks record through the same untilReachable)
    worker = await spawnWorker(url, workerDir, [], { RENDER_FARM_CHUNK_SECONDS: '0' });
    const { render } = await submitRender(db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { format: 'video', width: 1280, height: 720, profile: 'fast', cameraZoom: 1.17 },
    });
    await waitFor(
      'the render to be under way',
      async () => {
        const r = await renderRow(render.id);
        return r.status === 'processing' && r.progress > 0;
      },
      { timeoutMs: 90_000 },
    );

    await pg.stop();
    // the render goes on without the database and stores its files
    const video = path.join(workerDir, 'artifacts', artifactKey(render.cache_key, 'turntable.mp4'));
    await Promise.race([
      waitFor('the video to be stored during the outage', async () => existsSync(video), { timeoutMs: 120_000 }),
      worker.exited.then((code) =>
        Promise.reject(new Error(`worker exited ${code} during the render:\n${worker!.output()}`)),
      ),
    ]);
    // the database stays down while the worker tries to record the result: a fixed wait on
    // purpose, it proves the worker does NOT exit during the outage
    const exitedDuringOutage = await valueWithin(
      worker.exited.then((code) => `exited ${code}`),
      DOWN_AFTER_RENDER_MS,
      null,
    );
    expect(exitedDuringOutage, worker.output()).toBeNull();
    // the render really ended inside the outage (not before it): its bookkeeping had to wait
    expect(worker.output()).toContain('keeping the render and retrying its bookkeeping');

    pg = await startEmbeddedPostgres(pgDir, port);
    const done = await waitFor(
      'the render to be recorded as completed',
      async () => {
        const r = await renderRow(render.id).catch(() => null);
        return r?.status === 'completed' ? r : null;
      },
      { timeoutMs: 90_000 },
    );
    // rendered once: the result made during the outage was kept, not rendered again
    expect(done.attempts).toBe(1);
    expect(JSON.parse(JSON.stringify(done.artifacts)).video).toBe(artifactKey(render.cache_key, 'turntable.mp4'));
    await waitFor('the queue job to be completed', async () => (await queueJobs()) === 0, { timeoutMs: 60_000 });

    // and it carries on taking jobs
    const next = await submitRender(db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { format: 'sprite', width: 256, height: 256, profile: 'fast', cameraZoom: 1.17 },
    });
    await waitFor(
      'a render submitted after the outage',
      async () => (await renderRow(next.render.id)).status === 'completed',
      { timeoutMs: 90_000 },
    );
    expect(worker.proc.exitCode, worker.output()).toBeNull();
  }, 420_000);

  it('a job runner that stops unexpectedly is replaced, and the jobs it held are freed', async () => {
    // the process worker is done; this one runs in-process to reach its graphile runner
    worker?.proc.kill('SIGKILL');
    await worker?.exited;
    const w = await startWorker(cfg, db, await openArtifactStore(cfg), createLogger({ logLevel: 'silent' }), {
      concurrency: 1,
      renderTimeoutMs: 120_000,
      drainTimeoutMs: 10_000,
    });
    try {
      const first = w.runner;
      const heldBy = await waitFor(
        'the runner to report its graphile worker ids',
        async () => {
          const row = await db.db
            .selectFrom('workers')
            .select('graphile_ids')
            .where('id', '=', w.id)
            .executeTakeFirstOrThrow();
          return row.graphile_ids[0];
        },
        { timeoutMs: 30_000 },
      );
      // a queued render whose queue job the runner holds (committed together, so nobody takes it first)
      const request = normaliseRequest(
        glass.parts,
        null,
        resolveRenderOptions({ format: 'sprite', width: 256, height: 256, profile: 'fast', cameraZoom: 1.19 }),
      );
      // a real cache key: the worker checks it against its part versions and renderer
      const key = cacheKey(request, (await resolveBuildParts(db, request.parts)).versions, await rendererVersion());
      const renderId = await db.db.transaction().execute(async (trx) => {
        const r = await trx
          .insertInto('renders')
          .values({ cache_key: key, format: 'sprite', request: JSON.stringify(request) })
          .returning('id')
          .executeTakeFirstOrThrow();
        await enqueue(trx, 'render', { renderId: r.id });
        await sql`UPDATE graphile_worker._private_jobs SET locked_by = ${heldBy}, locked_at = now() WHERE key = ${`render:${r.id}`}`.execute(
          trx,
        );
        return r.id;
      });
      // what graphile-worker does by itself when completing jobs keeps failing for minutes
      await first.stop();
      await waitFor('a new runner', async () => w.runner !== first, { timeoutMs: 30_000 });
      const done = await waitFor(
        'the held render to be taken by the new runner',
        async () => {
          const r = await renderRow(renderId);
          return r.status === 'completed' ? r : null;
        },
        { timeoutMs: 90_000 },
      );
      expect(done.attempts).toBe(1);
    } finally {
      await w.stop();
    }
  }, 180_000);

  it('a chunk finished during an outage is kept: recorded when PostgreSQL is back, not rendered again', async () => {
    worker = await spawnWorker(url, workerDir, [], { RENDER_FARM_CHUNK_SECONDS: '0.01' });
    const { render } = await submitRender(db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { format: 'video', width: 640, height: 480, profile: 'cinematic', cameraZoom: 1.23 },
    });
    const running = await waitFor(
      'a chunk under way',
      async () => {
        const c = await db.db
          .selectFrom('render_chunks')
          .selectAll()
          .where('render_id', '=', render.id)
          .where('status', '=', 'processing')
          .where('frames_done', '>', 0)
          .executeTakeFirst();
        return c ?? null;
      },
      { timeoutMs: 90_000 },
    );
    await pg.stop();
    // the chunk goes on without the database and stores its segment
    const piece = path.join(workerDir, 'artifacts', chunkPieceKeys(render, running.plan, running.idx).h264!);
    await Promise.race([
      waitFor('the chunk piece to be stored during the outage', async () => existsSync(piece), { timeoutMs: 120_000 }),
      worker.exited.then((code) =>
        Promise.reject(new Error(`worker exited ${code} during the chunk:\n${worker!.output()}`)),
      ),
    ]);
    // the worker says it keeps the chunk (waitForOutput rejects if it exits first)
    await worker.waitForOutput('keeping the chunk and retrying its bookkeeping', 60_000);
    expect(worker.proc.exitCode, worker.output()).toBeNull();
    pg = await startEmbeddedPostgres(pgDir, port);
    const done = await waitFor(
      'the split render to complete',
      async () => {
        const r = await renderRow(render.id).catch(() => null);
        return r?.status === 'completed' ? r : null;
      },
      { timeoutMs: 180_000 },
    );
    expect(done.attempts).toBe(1);
    const kept = await db.db
      .selectFrom('render_chunks')
      .selectAll()
      .where('render_id', '=', render.id)
      .where('idx', '=', running.idx)
      .executeTakeFirstOrThrow();
    expect([kept.status, kept.attempts]).toEqual(['done', 1]);
  }, 420_000);
});
