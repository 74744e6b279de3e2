/**
 * The stage for render tests: the real farm bundle (farm/build.ts) when it exists, else the
 * stand-in fixture so the engine tests still run. Tests about what the models look like run
 * only against the farm.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BrowserPool } from '../../../src/render/browser-pool.js';
import { farmStageBundle } from '../../../src/render/stage-bundle.js';
import { findChromium, findFfmpeg } from '../../../src/render/tool-paths.js';
import { buildStandInBundle } from '../fixtures/stand-in-bundle.js';

/** Whether the real farm stage exists in this tree. */
export const HAS_FARM = existsSync(fileURLToPath(new URL('../../../farm/build.ts', import.meta.url)));

/** A warm pool for one test file (close it in afterAll). */
export async function testPool(): Promise<{ pool: BrowserPool; ffmpegPath: string }> {
  const chromium = await findChromium({});
  const ffmpegPath = (await findFfmpeg({})).path;
  const pool = new BrowserPool({ chromiumPath: chromium.path, glBackend: 'auto', stage: HAS_FARM ? farmStageBundle : buildStandInBundle, noSandbox: true });
  return { pool, ffmpegPath };
}
