/**
 * A saved build renders the same pixels through the API (submit -> worker) and through the
 * CLI `render --share-code`: the API renders the IDs sorted for the cache key, the CLI in the
 * saved order, so any order-dependence in the renderer shows up here (docs/rendering.md).
 * Real components: Postgres, a graphile worker with a warm Chromium, a CLI child process.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { apiSprite, startApiWithWorker, type ApiWithWorker } from '../helpers/api-worker.js';
import { diffFraction } from '../helpers/pixels.js';

const run = promisify(execFile);
const bin = path.resolve('bin/render-farm');
const SMALL = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;

describe('API and CLI render a saved build identically', () => {
  let farm: ApiWithWorker;
  let out: string;

  beforeAll(async () => {
    farm = await startApiWithWorker();
    out = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-entry-points-'));
  }, 180_000);
  afterAll(async () => {
    await farm?.close();
    if (out) await fs.rm(out, { recursive: true, force: true });
  });

  async function cliSprite(shareCode: string): Promise<Buffer> {
    const dir = path.join(out, shareCode);
    const env = { ...process.env, DATABASE_URL: farm.api.t.url, RENDER_FARM_DATA_DIR: path.join(out, 'data'), RENDER_FARM_GL: farm.backend };
    await run(process.execPath, [bin, 'render', '--share-code', shareCode, '--format', 'sprite', '--width', '256', '--height', '256', '--profile', 'fast', '--no-screenshot', '--out', dir], {
      env,
      timeout: 180_000,
    });
    return fs.readFile(path.join(dir, 'sprite.webp'));
  }

  for (const demo of DEMO_BUILDS) {
    it(`${demo.shareCode}: the API sprite equals the CLI sprite`, async () => {
      const [viaApi, viaCli] = [(await apiSprite(farm.api, demo.shareCode, SMALL)).bytes, await cliSprite(demo.shareCode)];
      expect(await diffFraction(viaApi, viaCli, 2)).toBe(0);
    }, 300_000);
  }
});
