/**
 * A test API with one real graphile worker (a warm Chromium engine) behind it, and a render
 * through it: submit a saved build's sprite with a fresh session token, wait, download. For tests
 * that compare what the API renders with what the CLI renders.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { startWorker, type RunningWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/log.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import { startTestApi, type TestApi } from './api.js';
import { failingWhile } from './engine.js';
import { waitFor } from './wait-for.js';

export interface ApiWithWorker {
  api: TestApi;
  engine: RenderEngine;
  worker: RunningWorker;
  /** the WebGL backend the worker draws with: a CLI must use the same for equal pixels */
  backend: string;
  close(): Promise<void>;
}

/**
 * A silent in-process worker of concurrency 1 for api's database and store, rendering with engine;
 * chunkSeconds, when given, is the worker's chunking setting.
 */
export function startTestWorker(
  api: Pick<TestApi, 't' | 'server'>,
  engine: RenderEngine,
  opts: { renderTimeoutMs?: number; chunkSeconds?: number } = {},
): Promise<RunningWorker> {
  return startWorker(api.t.cfg, api.t.db, api.server.ctx.store, createLogger({ logLevel: 'silent' }), {
    concurrency: 1,
    renderTimeoutMs: opts.renderTimeoutMs ?? 120_000,
    drainTimeoutMs: 10_000,
    engine,
    ...(opts.chunkSeconds === undefined ? {} : { chunkSeconds: opts.chunkSeconds }),
  });
}

/** useFailingWorker's engine and worker, and the switch that fails its renders. */
export interface FailingWorker {
  engine: RenderEngine;
  /** the worker stopped after all: a test that starts another one puts it here */
  worker: RunningWorker;
  /** while set (from the start), every render fails for good (failingWhile) */
  failing: boolean;
}

/**
 * For the enclosing describe (its beforeAll and afterAll): an engine and a startTestWorker of
 * whole renders (chunkSeconds 0) on api whose renders fail for good while `failing` is set.
 */
export function useFailingWorker(api: Pick<TestApi, 't' | 'server'>): FailingWorker {
  const fw = { failing: true } as FailingWorker;
  beforeAll(async () => {
    fw.engine = await createRenderEngine(api.t.cfg);
    fw.worker = await startTestWorker(
      api,
      failingWhile(fw.engine, () => fw.failing),
      { chunkSeconds: 0 },
    );
  }, 180_000);
  afterAll(async () => {
    await fw.worker?.stop();
    await fw.engine?.close();
  }, 60_000);
  return fw;
}

/** The API, then an engine (its default model source is the API's configured store) and a worker of concurrency 1. */
export async function startApiWithWorker(opts: { renderTimeoutMs?: number } = {}): Promise<ApiWithWorker> {
  const api = await startTestApi();
  const engine = await createRenderEngine(api.t.cfg);
  const backend = (await engine.info()).backend;
  const worker = await startTestWorker(api, engine, opts);
  return {
    api,
    engine,
    worker,
    backend,
    close: async () => {
      await worker.stop();
      await engine.close();
      await api.close();
    },
  };
}

/** Submits `shareCode` as a sprite with `options` (a token per render: one minted early may expire), waits for it and downloads it. */
export async function apiSprite(
  api: TestApi,
  shareCode: string,
  options: Record<string, unknown>,
  timeoutMs = 120_000,
): Promise<{ bytes: Buffer; jobId: string }> {
  const token = (
    await api.call('POST', '/auth/render-session', {
      token: api.key,
      body: { scopes: ['render:submit', 'render:status'], ttl_seconds: 300 },
    })
  ).json.session_token;
  const s = await api.call('POST', '/render-by-share-code', { token, body: { shareCode, ...options } });
  expect([200, 202]).toContain(s.status);
  const r = await waitFor(
    `the API render of ${shareCode}`,
    () => api.call('GET', `/render-build/${s.json.job_id}`, { token }),
    {
      until: (r) => r.json.status === 'completed' || r.json.status === 'error',
      timeoutMs,
      show: (r) => JSON.stringify(r.json),
    },
  );
  if (r.json.status !== 'completed') throw new Error(`render of ${shareCode}: ${JSON.stringify(r.json)}`);
  return { bytes: Buffer.from(await (await fetch(r.json.sprite_url)).arrayBuffer()), jobId: s.json.job_id };
}
