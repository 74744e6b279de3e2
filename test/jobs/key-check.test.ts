/**
 * The worker checks a render's cache key against the part data versions and renderer version
 * it has, with a real graphile-worker: a catalog edit after submission fails the render for good
 * (naming the part), a render requested for another renderer is queued again and finally fails
 * (naming both versions); in neither case is anything stored under the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { resolveBuildParts } from '../../src/catalog/resolve-build.js';
import { cacheKey } from '../../src/jobs/cache-key.js';
import { changedParts } from '../../src/jobs/key-check.js';
import { submitRender } from '../../src/jobs/submit.js';
import { startWorker, type RunningWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/log.js';
import { normalisedRequestSchema } from '../../src/model/render-request.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import { rendererVersion } from '../../src/render/renderer-version.js';
import type { ArtifactStore } from '../../src/storage/artifact-store.js';
import { renderArtifactKey } from '../../src/storage/artifact-key.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { waitFor } from '../helpers/wait-for.js';
import { useQueueDb } from '../helpers/queue-db.js';

const SMALL = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;

describe("the worker's cache-key check", () => {
  const t = useQueueDb();
  let engine: RenderEngine;
  let store: ArtifactStore;
  let worker: RunningWorker | null = null;
  let customerId: string;
  const glass = DEMO_BUILDS.find((x) => x.shareCode === 'DEMO-GLASS')!;
  const row = (id: string) => t.db.db.selectFrom('renders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const final = (id: string, timeoutMs = 120_000) =>
    waitFor(
      `render ${id} to end`,
      async () => {
        const r = await row(id);
        return r.status === 'completed' || r.status === 'error' ? r : null;
      },
      {
        timeoutMs,
        intervalMs: 500,
        ...(worker ? { wake: { emitter: worker.events, events: ['job:complete', 'job:error', 'job:failed'] } } : {}),
      },
    );
  const nothingStored = async (key: string) => (await store.stat(renderArtifactKey(key, 'sprite.webp'))) === null;

  beforeAll(async () => {
    customerId = (await ensureCustomer(t.db.db, 'acme')).id;
    store = await openArtifactStore(t.cfg);
    engine = await createRenderEngine(t.cfg);
  }, 120_000);
  // each test prepares its rows first, then starts the worker, so the worker cannot claim early
  const start = async () => {
    worker = await startWorker(t.cfg, t.db, store, createLogger({ logLevel: 'silent' }), {
      concurrency: 1,
      renderTimeoutMs: 120_000,
      drainTimeoutMs: 10_000,
      engine,
    });
  };
  const stop = async () => {
    await worker?.stop();
    worker = null;
  };
  afterAll(async () => {
    await worker?.stop();
    await engine?.close();
  });

  it('names the parts whose versions differ', () => {
    expect(changedParts({ a: 1, b: 2 }, { a: 1, b: 3, c: 1 })).toEqual(['b v2 -> v3', 'c v? -> v1']);
  });

  it('fails a render whose part data changed after submission, stores nothing, and a new submission renders the current data', async () => {
    // a catalog edit between submission and the worker's claim
    const caseId = glass.parts.PCCase![0]!;
    const s = await submitRender(t.db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { ...SMALL, cameraZoom: 1.31 },
    });
    await t.db.db
      .updateTable('parts')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', caseId)
      .execute();
    await start();
    const r = await final(s.render.id);
    expect(r.status).toBe('error');
    expect(r.error).toContain('part data changed since this render was requested');
    expect(r.error).toContain(caseId);
    expect(await nothingStored(r.cache_key)).toBe(true);

    const again = await submitRender(t.db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { ...SMALL, cameraZoom: 1.31 },
    });
    expect(again.outcome).toBe('new');
    expect(again.render.cache_key).not.toBe(r.cache_key);
    const done = await final(again.render.id);
    expect(done.status).toBe('completed');
    expect(await nothingStored(done.cache_key)).toBe(false);
    await stop();
  }, 180_000);

  it('requeues a render requested for another renderer, then fails it naming both versions; stores nothing', async () => {
    const s = await submitRender(t.db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { ...SMALL, cameraZoom: 1.32 },
    });
    // as an API process running another renderer version would have written it
    const other = '0123456789abcdef';
    const request = normalisedRequestSchema.parse(s.render.request);
    const { versions } = await resolveBuildParts(t.db, request.parts);
    const otherKey = cacheKey(request, versions, other);
    await t.db.db
      .updateTable('renders')
      .set({ renderer_version: other, cache_key: otherKey })
      .where('id', '=', s.render.id)
      .execute();
    await start();
    const mine = await rendererVersion();
    const requeued = await waitFor(
      'the render to be queued again with the reason',
      async () => {
        const r = await row(s.render.id);
        return r.attempts >= 1 && r.error ? r : null;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(requeued.error).toContain(
      `this worker's renderer (${mine}) differs from the one the render was requested for (${other})`,
    );
    const r = await final(s.render.id);
    expect(r.status).toBe('error');
    expect(r.attempts).toBe(3);
    expect(r.error).toContain(other);
    expect(await nothingStored(otherKey)).toBe(true);
    await stop();
  }, 180_000);
});
