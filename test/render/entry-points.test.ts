/**
 * A saved build renders the same pixels through the API (submit -> worker) and through the
 * CLI `render --share-code`: the API renders the IDs sorted for the cache key, the CLI in the
 * saved order, so any order-dependence in the renderer shows up here (docs/rendering.md).
 * Real components: Postgres, a graphile worker with a warm Chromium, a CLI child process.
 *
 * Each CLI render is a child process with its own Chromium, the test's cost: compared are the
 * builds saved out of sorted order (what the test is for), then, of the rest, the first with
 * each kind of saved state (fans, radiator, RGB) and one with none (3 of the 8 demo builds today).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS, type DemoBuild } from '../../src/catalog/demo-catalog.js';
import { apiSprite, startApiWithWorker, type ApiWithWorker } from '../helpers/api-worker.js';
import { diffFraction } from '../helpers/pixels.js';

const run = promisify(execFile);
const bin = path.resolve('bin/render-farm');
const SMALL = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;

/** Some category's saved ids are not in sorted order: the API and the CLI draw them in different orders. */
const unsorted = (b: DemoBuild) => Object.values(b.parts).some((ids) => ids.join() !== [...ids].sort().join());
const STATES = ['fans', 'radiator', 'rgb', 'none'] as const;
const hasState = (b: DemoBuild, s: (typeof STATES)[number]) => (s === 'none' ? !b.interactiveState : b.interactiveState?.[s] !== undefined);

function comparedBuilds(): DemoBuild[] {
  const picked = DEMO_BUILDS.filter(unsorted);
  for (const s of STATES) {
    const more = picked.some((b) => hasState(b, s)) ? undefined : DEMO_BUILDS.find((b) => !picked.includes(b) && hasState(b, s));
    if (more) picked.push(more);
  }
  return picked;
}
const COMPARED = comparedBuilds();

it('compares builds saved out of sorted order, and every kind of saved state', () => {
  expect(COMPARED.filter(unsorted).length).toBeGreaterThan(0);
  for (const s of STATES) expect(COMPARED.some((b) => hasState(b, s)), s).toBe(true);
});

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

  for (const demo of COMPARED) {
    it(`${demo.shareCode}: the API sprite equals the CLI sprite`, async () => {
      const [viaApi, viaCli] = [(await apiSprite(farm.api, demo.shareCode, SMALL)).bytes, await cliSprite(demo.shareCode)];
      expect(await diffFraction(viaApi, viaCli, 2)).toBe(0);
    }, 300_000);
  }
});
