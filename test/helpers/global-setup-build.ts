/**
 * vitest globalSetup of the render tier: a current dist/, so the CLI the tests spawn is the
 * compiled one users run, with the edits in it; and no temp dirs left by killed test processes.
 */
import { execFileSync } from 'node:child_process';
import { sweepStaleTempDirs } from '../../src/temp-dirs.js';

export async function setup(): Promise<void> {
  // Chromium profiles and job dirs of test processes killed in earlier runs
  await sweepStaleTempDirs();
  // unchanged outputs are not rewritten: a no-op after `npm install`
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

export async function teardown(): Promise<void> {
  // what this run's test processes and the CLI children they killed left behind
  await sweepStaleTempDirs();
}
