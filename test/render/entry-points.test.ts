/**
 * A saved build renders the same pixels through the API (submit -> worker) and through the
 * CLI `render --share-code`: the API renders the IDs sorted for the cache key, the CLI in the
 * saved order, so any order-dependence in the renderer shows up here (docs/rendering.md).
 * Real components: Postgres, a graphile worker with a warm Chromium, a CLI child process.
 *
 * Every demo build is compared, all rendered by ONE CLI child (`render` with every share code:
 * one Chromium launch, each build into <out>/<CODE>/), started at once so it renders while the
 * worker renders the API's sprites. The set must keep builds saved out of sorted order (what
 * the test is for) and every kind of saved state (fans, radiator, RGB, none).
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
import { SPRITE_256_FAST } from '../helpers/render-args.js';

const run = promisify(execFile);
const bin = path.resolve('bin/render-farm');
const SMALL = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;

/** Some category's saved ids are not in sorted order: the API and the CLI draw them in different orders. */
const unsorted = (b: DemoBuild) => Object.values(b.parts).some((ids) => ids.join() !== [...ids].sort().join());
const STATES = ['fans', 'radiator', 'rgb', 'none'] as const;
const hasState = (b: DemoBuild, s: (typeof STATES)[number]) =>
  s === 'none' ? !b.interactiveState : b.interactiveState?.[s] !== undefined;

const COMPARED: readonly DemoBuild[] = DEMO_BUILDS;

it('compares builds saved out of sorted order, and every kind of saved state', () => {
  expect(COMPARED.filter(unsorted).length).toBeGreaterThan(0);
  for (const s of STATES)
    expect(
      COMPARED.some((b) => hasState(b, s)),
      s,
    ).toBe(true);
});

describe('API and CLI render a saved build identically', () => {
  let farm: ApiWithWorker;
  let out: string;
  /** the one CLI child rendering every compared build; resolves with its --json summaries */
  let cliRun: Promise<{ shareCode: string; files: { path: string }[] }[]>;

  beforeAll(async () => {
    farm = await startApiWithWorker();
    out = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-entry-points-'));
    const env = {
      ...process.env,
      DATABASE_URL: farm.api.t.url,
      RENDER_FARM_DATA_DIR: path.join(out, 'data'),
      RENDER_FARM_GL: farm.backend,
    };
    const codes = COMPARED.flatMap((b) => ['--share-code', b.shareCode]);
    const args = [
      bin,
      'render',
      ...codes,
      ...SPRITE_256_FAST,
      '--no-screenshot',
      '--json',
      '--out',
      path.join(out, 'cli'),
    ];
    cliRun = run(process.execPath, args, { env, timeout: 600_000 }).then((r) => JSON.parse(r.stdout));
    // awaited by each test; a failure is reported there, not as an unhandled rejection
    cliRun.catch(() => {});
  }, 180_000);
  afterAll(async () => {
    await cliRun?.catch(() => {});
    await farm?.close();
    if (out) await fs.rm(out, { recursive: true, force: true });
  });

  /** The CLI's sprite of one build, from the one child's run: its summary names it and the file in <out>/<CODE>/. */
  async function cliSprite(shareCode: string): Promise<Buffer> {
    const summaries = await cliRun;
    expect(summaries.map((s) => s.shareCode)).toEqual(COMPARED.map((b) => b.shareCode));
    const file = path.join(out, 'cli', shareCode, 'sprite.webp');
    expect(summaries.find((s) => s.shareCode === shareCode)!.files.map((f) => f.path)).toEqual([file]);
    return fs.readFile(file);
  }

  for (const demo of COMPARED) {
    it(`${demo.shareCode}: the API sprite equals the CLI sprite`, async () => {
      const [viaApi, viaCli] = [
        (await apiSprite(farm.api, demo.shareCode, SMALL)).bytes,
        await cliSprite(demo.shareCode),
      ];
      expect(await diffFraction(viaApi, viaCli, 2)).toBe(0);
    }, 300_000);
  }
});
