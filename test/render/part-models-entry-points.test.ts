/**
 * Part models end to end, through every entry point: an admin key PUTs a GPU model over the API,
 * then the same saved build renders the same pixels through the API (submit -> a real worker,
 * which fetches the model from the artifact store), through `render --share-code` (the CLI reads
 * the stored model) and through `render --model <id>=<file>` (the CLI prepares the file itself:
 * the same prepared bytes, so the same sha256). The model changes the cache key, so the render
 * with the model is a new render and differs from the one without.
 * Real components: Postgres, the HTTP API, a graphile worker with Chromium, CLI child processes.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { demoPart } from '../../src/catalog/demo-catalog.js';
import type { Part } from '../../src/model/part.js';
import { apiSprite, startApiWithWorker, type ApiWithWorker } from '../helpers/api-worker.js';
import { distinctiveGpu } from '../helpers/gltf-fixtures.js';
import { diffFraction } from '../helpers/pixels.js';
import { runProcess } from '../helpers/run-process.js';
import { SPRITE_256_FAST } from '../helpers/render-args.js';

const bin = path.resolve('bin/render-farm');
const SMALL = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;
const gpu = demoPart('gpuTriple3Fan') as Part<'GPU'>;

describe('a part model renders the same through the API, a worker and the CLI', () => {
  let farm: ApiWithWorker;
  let out: string;
  let glbFile: string;

  beforeAll(async () => {
    // the worker's engine draws models from the configured store: the one the API writes to
    farm = await startApiWithWorker();
    out = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-model-entry-'));
    glbFile = path.join(out, 'gpu.glb');
    await fs.writeFile(glbFile, await distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth).glb());
  }, 180_000);
  afterAll(async () => {
    await farm?.close();
    if (out) await fs.rm(out, { recursive: true, force: true });
  });

  async function cliSprite(name: string, extra: string[] = []): Promise<Buffer> {
    const dir = path.join(out, name);
    // the CLI shares the API's database and artifact store (where the stored model is)
    const env = {
      ...process.env,
      DATABASE_URL: farm.api.t.url,
      RENDER_FARM_DATA_DIR: path.join(out, 'cli-data'),
      STORAGE_URL: `file://${path.join(farm.api.t.cfg.dataDir, 'artifacts')}`,
      RENDER_FARM_GL: farm.backend,
    };
    const r = await runProcess(
      process.execPath,
      [bin, 'render', '--share-code', 'DEMO-GLASS', ...SPRITE_256_FAST, '--no-screenshot', '--out', dir, ...extra],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    return fs.readFile(path.join(dir, 'sprite.webp'));
  }

  it('API + worker, render --share-code and render --model give one picture, which differs from the procedural one', async () => {
    const api = farm.api;
    const before = await apiSprite(api, 'DEMO-GLASS', SMALL);
    const viaModelFlag = await cliSprite('model-flag', ['--model', `${gpu.id}=${glbFile}`]);

    const admin = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
    const put = await fetch(`${api.url}/models/${gpu.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'model/gltf-binary' },
      body: new Uint8Array(await fs.readFile(glbFile)),
    });
    expect(put.status).toBe(201);

    const after = await apiSprite(api, 'DEMO-GLASS', SMALL);
    // a new cache key: a new render, not the cached procedural one
    expect(after.jobId).not.toBe(before.jobId);
    const viaCli = await cliSprite('share-code');

    expect(await diffFraction(after.bytes, viaCli, 2)).toBe(0);
    expect(await diffFraction(after.bytes, viaModelFlag, 2)).toBe(0);
    // the model is in the picture: every frame shows the GPU, so a visible share of pixels moved
    expect(await diffFraction(after.bytes, before.bytes, 2)).toBeGreaterThan(0.002);
  }, 600_000);
});
