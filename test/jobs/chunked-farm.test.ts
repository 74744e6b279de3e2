/**
 * Split renders on a real farm (real PostgreSQL, graphile-worker, Chromium, ffmpeg, sharp):
 * a render becomes frame-range chunks plus one assemble task, and the result is byte-identical
 * to a whole render of the same request; progress counts frames over chunks; pieces are
 * deleted after assembly and swept when abandoned; a worker on another data dir assembles
 * chunks from the shared S3 store. The SIGKILL and two-process cases are in
 * chunked-processes.test.ts.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { loadConfig } from '../../src/config.js';
import { jobView } from '../../src/jobs/job-view.js';
import { jobChunks } from '../../src/jobs/jobs-repository.js';
import { holderOf } from '../../src/jobs/claim-fence.js';
import { claimChunk, recordChunkProgress, renderChunks, splitRender } from '../../src/jobs/chunk-lifecycle.js';
import { claimRender, createRender, failRender } from '../../src/jobs/render-lifecycle.js';
import type { RenderRow } from '../../src/jobs/render-row.js';
import { sweepChunkPieces } from '../../src/jobs/sweeper.js';
import { submitRender } from '../../src/jobs/submit.js';
import { loadRenderInput } from '../../src/jobs/tasks/render-input.js';
import { chunkPieceKeys } from '../../src/jobs/render-files.js';
import { startWorker, type RunningWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/log.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import type { ArtifactStore } from '../../src/storage/artifact-store.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { waitFor } from '../helpers/wait-for.js';
import { useQueueDb } from '../helpers/queue-db.js';

const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
const silent = createLogger({ logLevel: 'silent' });

async function bytes(store: ArtifactStore, key: string): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of (await store.read(key)) as AsyncIterable<Buffer>) out.push(c);
  return Buffer.concat(out);
}

describe('split renders', () => {
  const t = useQueueDb();
  let engine: RenderEngine;
  let store: ArtifactStore;
  let customerId: string;
  const workers: RunningWorker[] = [];
  // every render of these tests splits into single units (a 30-frame segment, a sheet row)
  const startChunkWorker = async (cfg = t.cfg, s = store, e = engine) => {
    const w = await startWorker(cfg, t.db, s, silent, {
      concurrency: 1,
      renderTimeoutMs: 120_000,
      drainTimeoutMs: 60_000,
      engine: e,
      chunkSeconds: 0.01,
    });
    workers.push(w);
    return w;
  };
  const renderRow = (id: string) =>
    t.db.db.selectFrom('renders').selectAll().where('id', '=', id).executeTakeFirstOrThrow() as Promise<RenderRow>;
  const completed = (id: string, timeoutMs = 150_000) =>
    waitFor(
      'the split render to complete',
      async () => {
        const r = await renderRow(id);
        if (r.status === 'error') throw new Error(`render failed: ${r.error}`);
        return r.status === 'completed' ? r : null;
      },
      { timeoutMs, intervalMs: 250 },
    );
  /** The whole-render result of the same row, rendered here in one pass. */
  const wholeRender = async (row: RenderRow) => {
    const input = await loadRenderInput(t.db, row, (op) => op());
    const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-whole-'));
    const r = await engine.render({ build: input.build, options: input.request.options, outDir });
    return {
      files: new Map(await Promise.all(r.files.map(async (f) => [f.kind, await fs.readFile(f.path)] as const))),
      outDir,
    };
  };

  beforeAll(async () => {
    store = await openArtifactStore(t.cfg);
    engine = await createRenderEngine(t.cfg);
    customerId = (await ensureCustomer(t.db.db, 'acme')).id;
  }, 120_000);
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await engine?.close();
  });

  it('a video splits into 30-frame chunks, assembles byte-identical to a whole render, and deletes its pieces', async () => {
    const w = await startChunkWorker();
    try {
      const s = await submitRender(t.db, {
        customerId,
        parts: glass.parts,
        state: null,
        options: { format: 'video', width: 256, height: 256, profile: 'fast', cameraZoom: 1.07 },
      });
      const done = await completed(s.render.id);
      expect(done.chunk_total).toBe(4);
      expect(done.chunks_done).toBe(4);
      // the assemble step deletes the pieces just after completing the render
      const chunks = await waitFor(
        'the chunk pieces to be deleted',
        async () => {
          const cs = await renderChunks(t.db.db, s.render.id);
          return cs.every((c) => c.pieces === null) ? cs : null;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      expect(chunks.map((c) => [c.start_frame, c.end_frame, c.status, c.attempts])).toEqual([
        [0, 30, 'done', 1],
        [30, 60, 'done', 1],
        [60, 90, 'done', 1],
        [90, 120, 'done', 1],
      ]);
      // the pieces are gone from the store and from the rows
      for (const c of chunks) {
        expect(c.pieces).toBeNull();
        for (const key of Object.values(chunkPieceKeys(done, c.plan, c.idx))) expect(await store.stat(key!)).toBeNull();
      }
      const artifacts = done.artifacts as Record<string, string>;
      const whole = await wholeRender(done);
      try {
        expect((await bytes(store, artifacts.video!)).equals(whole.files.get('video')!)).toBe(true);
        expect((await bytes(store, artifacts.screenshot!)).equals(whole.files.get('screenshot')!)).toBe(true);
      } finally {
        await fs.rm(whole.outDir, { recursive: true, force: true });
      }
      const view = await jobView(s.jobId, done, async (k) => `/artifacts/${k}`);
      expect(view.chunks).toEqual({ total: 4, done: 4 });
      // what `jobs show` lists
      const listed = await jobChunks(t.db, s.render.id);
      expect(listed.map((c) => [c.chunk, c.frames, c.status, c.attempts, c.frames_done])).toEqual([
        [0, '0-29', 'done', 1, 30],
        [1, '30-59', 'done', 1, 30],
        [2, '60-89', 'done', 1, 30],
        [3, '90-119', 'done', 1, 30],
      ]);
      for (const c of listed) {
        expect(c.worker).toContain(w.id);
        expect(c.seconds).toBeGreaterThan(0);
      }
      expect(view.progress).toBe(1);
    } finally {
      await w.stop();
    }
  }, 240_000);

  it('a sprite splits into sheet rows and assembles byte-identical to a whole render', async () => {
    const w = await startChunkWorker();
    try {
      const s = await submitRender(t.db, {
        customerId,
        parts: glass.parts,
        state: null,
        options: { format: 'sprite', width: 256, height: 256, profile: 'fast', cameraZoom: 1.08 },
      });
      const done = await completed(s.render.id);
      // 72 frames in rows of 12: six chunks
      expect(done.chunk_total).toBe(6);
      const artifacts = done.artifacts as Record<string, string>;
      const whole = await wholeRender(done);
      try {
        expect((await bytes(store, artifacts.sprite!)).equals(whole.files.get('sprite')!)).toBe(true);
        expect((await bytes(store, artifacts.screenshot!)).equals(whole.files.get('screenshot')!)).toBe(true);
      } finally {
        await fs.rm(whole.outDir, { recursive: true, force: true });
      }
      expect(done.sprite_layout).toEqual(
        resolveRenderOptions({ format: 'sprite', width: 256, height: 256, profile: 'fast' }).sprite,
      );
    } finally {
      await w.stop();
    }
  }, 240_000);

  it("another customer's small job goes ahead of a split render's remaining chunks", async () => {
    const w = await startChunkWorker();
    try {
      const globex = (await ensureCustomer(t.db.db, 'globex')).id;
      const a = await submitRender(t.db, {
        customerId,
        parts: glass.parts,
        state: null,
        options: { format: 'video', width: 640, height: 480, profile: 'fast', cameraZoom: 1.1 },
      });
      await waitFor(
        'a chunk of the split render under way',
        async () => (await renderChunks(t.db.db, a.render.id)).some((c) => c.status === 'processing'),
        { timeoutMs: 60_000, intervalMs: 50 },
      );
      const b = await submitRender(t.db, {
        customerId: globex,
        parts: glass.parts,
        state: null,
        options: { format: 'sprite', width: 256, height: 256, profile: 'fast', cameraZoom: 1.1 },
      });
      const bDone = await completed(b.render.id);
      await completed(a.render.id);
      const chunks = await renderChunks(t.db.db, a.render.id);
      expect(chunks).toHaveLength(4);
      // one worker: B ran right after the chunk under way when it arrived, before the rest
      const after = chunks.filter((c) => c.started_at! > bDone.finished_at!);
      expect(after.length).toBeGreaterThanOrEqual(2);
    } finally {
      await w.stop();
    }
  }, 240_000);

  it('a draining worker past its bound gives back only the chunk it was rendering', async () => {
    // a 1 s drain bound: the running chunk is aborted and released, not waited for
    const w = await startWorker(t.cfg, t.db, store, silent, {
      concurrency: 1,
      renderTimeoutMs: 120_000,
      drainTimeoutMs: 1_000,
      engine,
      chunkSeconds: 0.01,
    });
    const s = await submitRender(t.db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { format: 'video', width: 640, height: 480, profile: 'cinematic', cameraZoom: 1.12 },
    });
    const moment = await waitFor(
      'a chunk done and the next one under way',
      async () => {
        const cs = await renderChunks(t.db.db, s.render.id);
        const running = cs.find((c) => c.status === 'processing' && c.frames_done > 0);
        return cs.some((c) => c.status === 'done') && running ? { cs, running } : null;
      },
      { timeoutMs: 120_000, intervalMs: 50 },
    );
    await w.stop();
    const afterDrain = await renderChunks(t.db.db, s.render.id);
    expect(afterDrain.find((c) => c.idx === moment.running.idx)!.status).toBe('queued');
    expect((await renderRow(s.render.id)).status).toBe('processing');
    const doneBefore = afterDrain.filter((c) => c.status === 'done');
    expect(doneBefore.length).toBeGreaterThan(0);
    // another worker finishes the render; the chunks done before the drain are not rendered again
    const w2 = await startChunkWorker();
    try {
      const done = await completed(s.render.id);
      expect(done.attempts).toBe(1);
      const final = await renderChunks(t.db.db, s.render.id);
      for (const c of doneBefore) expect(final.find((x) => x.idx === c.idx)!.attempts).toBe(1);
      expect(final.find((c) => c.idx === moment.running.idx)!.attempts).toBe(2);
      expect(final.find((c) => c.idx === moment.running.idx)!.error).toBeNull();
    } finally {
      await w2.stop();
    }
  }, 240_000);

  it('progress counts frames over all chunks; abandoned pieces are swept', async () => {
    const options = resolveRenderOptions({ format: 'video', width: 256, height: 256, profile: 'fast' });
    const row = (await createRender(t.db.db, 'video', {
      cacheKey: 'f'.repeat(64),
      request: { parts: glass.parts, state: null, options } as never,
      partVersions: {},
      rendererVersion: 'test',
      estimatedCostS: 1,
    }))!;
    const planner = await claimRender(t.db.db, row.id, { workerId: 'w-plan', lockedBy: null });
    const plan = '00000000-0000-4000-8000-000000000001';
    await splitRender(t.db.db, row.id, holderOf(planner!), plan, [
      { idx: 0, start: 0, end: 30 },
      { idx: 1, start: 30, end: 120 },
    ]);
    const claimed = await claimChunk(t.db.db, row.id, plan, 1, {
      workerId: 'w-test',
      lockedBy: null,
      pieces: (r) => chunkPieceKeys(r, plan, 1),
    });
    expect(claimed?.chunk.attempts).toBe(1);
    await recordChunkProgress(t.db.db, row.id, plan, 1, holderOf(claimed!.chunk), 45);
    expect(Number((await renderRow(row.id)).progress)).toBeCloseTo(45 / 120, 5);
    // a piece was uploaded, then the render failed: nobody will assemble it
    const key = chunkPieceKeys(row, plan, 1).h264!;
    await store.putBuffer(key, Buffer.from('segment'), 'video/h264');
    expect((await sweepChunkPieces(t.db, store)).length).toBe(0);
    await failRender(t.db.db, row.id, { plan }, 'test failure');
    const swept = await sweepChunkPieces(t.db, store);
    expect(swept.map((c) => c.idx)).toEqual([1]);
    expect(await store.stat(key)).toBeNull();
    const chunk = await t.db.db
      .selectFrom('render_chunks')
      .select('pieces')
      .where('render_id', '=', row.id)
      .where('idx', '=', 1)
      .executeTakeFirstOrThrow();
    expect(chunk.pieces).toBeNull();
    expect((await sweepChunkPieces(t.db, store)).length).toBe(0);
  });

  it('a worker on another data dir assembles chunks rendered elsewhere, through the S3 store', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-chunk-s3-'));
    const s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(tmp, 's3rver'),
      configureBuckets: [{ name: 'rf-chunks', configs: [] }],
    });
    const { port } = await s3.run();
    const s3cfg = async (name: string) => {
      const dataDir = path.join(tmp, name);
      await fs.mkdir(dataDir);
      return loadConfig(
        { databaseUrl: t.url, dataDir, signingSecret: t.cfg.signingSecret },
        {
          STORAGE_URL: 's3://rf-chunks/farm',
          S3_ENDPOINT: `http://127.0.0.1:${port}`,
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
        },
      );
    };
    const cfgA = await s3cfg('machine-a');
    const cfgB = await s3cfg('machine-b');
    const storeA = await openArtifactStore(cfgA);
    const storeB = await openArtifactStore(cfgB);
    expect(storeA.kind).toBe('s3');
    const engineB = await createRenderEngine(cfgB);
    try {
      const a = await startChunkWorker(cfgA, storeA);
      const s = await submitRender(t.db, {
        customerId,
        parts: glass.parts,
        state: null,
        options: { format: 'video', width: 256, height: 256, profile: 'fast', cameraZoom: 1.09 },
      });
      // machine A renders every chunk; it drains (taking no new job) while rendering the last one
      await waitFor(
        'the last chunk to be under way on A',
        async () => {
          const cs = await renderChunks(t.db.db, s.render.id);
          return (
            cs.length === 4 &&
            cs.filter((c) => c.status === 'done').length === 3 &&
            cs.some((c) => c.status === 'processing')
          );
        },
        { timeoutMs: 120_000, intervalMs: 50 },
      );
      await a.stop();
      const cs = await renderChunks(t.db.db, s.render.id);
      expect(cs.every((c) => c.status === 'done' && c.worker_id === a.id)).toBe(true);
      expect((await renderRow(s.render.id)).status).toBe('processing');
      // machine B, another data dir and browser, only assembles
      const b = await startChunkWorker(cfgB, storeB, engineB);
      const done = await completed(s.render.id, 60_000);
      await b.stop();
      const artifacts = done.artifacts as Record<string, string>;
      const video = await bytes(storeB, artifacts.video!);
      expect(video.subarray(4, 8).toString()).toBe('ftyp');
      const whole = await wholeRender(done);
      try {
        expect(video.equals(whole.files.get('video')!)).toBe(true);
      } finally {
        await fs.rm(whole.outDir, { recursive: true, force: true });
      }
      for (const c of cs)
        for (const key of Object.values(chunkPieceKeys(done, c.plan, c.idx)))
          expect(await storeB.stat(key!)).toBeNull();
    } finally {
      await engineB.close();
      await s3.close();
      await fs.rm(tmp, { recursive: true, force: true });
    }
  }, 240_000);
});
