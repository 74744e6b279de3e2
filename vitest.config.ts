import { defineConfig } from 'vitest/config';
import { ALL, DB, UNIT } from './test/tiers.js';

/**
 * Three tiers (test/tiers.ts): `npm test` runs all three, `npm run test:fast` unit and db.
 * Only the tiers that need them pay for PostgreSQL (global-setup.ts) and the build of dist/.
 */
export default defineConfig({
  test: {
    // real Postgres, Chromium and ffmpeg: generous, but bounded
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [...UNIT],
          setupFiles: ['test/helpers/tier-guard.ts'],
          provide: { tier: 'unit' },
        },
      },
      {
        extends: true,
        test: {
          name: 'db',
          include: [...DB],
          globalSetup: ['test/helpers/global-setup.ts'],
          setupFiles: ['test/helpers/tier-guard.ts'],
          provide: { tier: 'db' },
        },
      },
      {
        extends: true,
        test: {
          name: 'render',
          include: ALL,
          exclude: [...UNIT, ...DB],
          globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/global-setup-build.ts'],
          provide: { tier: 'render' },
        },
      },
    ],
  },
});
