/**
 * A saved build renders the same pixels through the API (submit -> worker) and through the
 * CLI `render --share-code`: the API renders the IDs sorted for the cache key, the CLI in the
 * saved order, so any order-dependence in the renderer shows up here (issue 11, item 1).
 * Real components: Postgres, a graphile worker with a warm Chromium, a CLI child process.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import { startWorker, type RunningWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/log.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { diffFraction } from '../helpers/pixels.js';
import { waitFor } from '../helpers/wait-for.js';

const run = promisify(execFile);
const bin = path.resolve('bin/render-farm');
const SMALL = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;

describe('API and CLI render a saved build identically', () => {
  let api: TestApi;
  let engine: RenderEngine;
  let worker: RunningWorker;
  let backend: string;
  let out: string;

  beforeAll(async () => {
    api = await startTestApi();
    out = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-entry-points-'));
    engine = await createRenderEngine(api.t.cfg);
    // the CLI must draw with the same WebGL backend for pixels to be comparable
    backend = (await engine.info()).backend;
    worker = await startWorker(api.t.cfg, api.t.db, api.server.ctx.store, createLogger({ logLevel: 'silent' }), {
      concurrency: 1,
      renderTimeoutMs: 120_000,
      drainTimeoutMs: 10_000,
      engine,
    });
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await engine?.close();
    await api?.close();
    if (out) await fs.rm(out, { recursive: true, force: true });
  });

  async function apiSprite(shareCode: string): Promise<Buffer> {
    // a token per render: one minted in beforeAll expires (120 s) before the last build on a busy machine
    const token = (await api.call('POST', '/auth/render-session', { token: api.key, body: { scopes: ['render:submit', 'render:status'], ttl_seconds: 300 } })).json.session_token;
    const s = await api.call('POST', '/render-by-share-code', { token, body: { shareCode, ...SMALL } });
    expect([200, 202]).toContain(s.status);
    const r = await waitFor(`the API render of ${shareCode}`, () => api.call('GET', `/render-build/${s.json.job_id}`, { token }), {
      until: (r) => r.json.status === 'completed' || r.json.status === 'error',
      timeoutMs: 120_000,
      show: (r) => JSON.stringify(r.json),
    });
    if (r.json.status !== 'completed') throw new Error(`render of ${shareCode}: ${JSON.stringify(r.json)}`);
    return Buffer.from(await (await fetch(r.json.sprite_url)).arrayBuffer());
  }

  async function cliSprite(shareCode: string): Promise<Buffer> {
    const dir = path.join(out, shareCode);
    const env = { ...process.env, DATABASE_URL: api.t.url, RENDER_FARM_DATA_DIR: path.join(out, 'data'), RENDER_FARM_GL: backend };
    await run(process.execPath, [bin, 'render', '--share-code', shareCode, '--format', 'sprite', '--width', '256', '--height', '256', '--profile', 'fast', '--no-screenshot', '--out', dir], {
      env,
      timeout: 180_000,
    });
    return fs.readFile(path.join(dir, 'sprite.webp'));
  }

  for (const demo of DEMO_BUILDS) {
    it(`${demo.shareCode}: the API sprite equals the CLI sprite`, async () => {
      const [viaApi, viaCli] = [await apiSprite(demo.shareCode), await cliSprite(demo.shareCode)];
      expect(await diffFraction(viaApi, viaCli, 2)).toBe(0);
    }, 300_000);
  }
});
