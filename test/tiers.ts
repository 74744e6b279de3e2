/**
 * The suite's three tiers: which test file runs in which vitest project (vitest.config.ts).
 * - unit: no database, no Chromium, no child process (no global setup; `npm run test:unit`);
 * - db: PostgreSQL (global-setup's template database), nothing else (`npm run test:db`);
 * - render: anything that launches Chromium, ffmpeg or a child process (the CLI, a worker,
 *   esbuild), and whatever is too slow for the fast loop (`npm run test:render`).
 * A file named in neither list is a render file (test/api/models-api.test.ts: the API prepares
 * an uploaded model in a child process, which no import shows; the db tier's guard found it).
 * test/tiers.test.ts checks each file's imports against its tier (test/tier-usage.ts), and
 * test/helpers/tier-guard.ts refuses child processes in unit and db at run time: list a new file
 * here when it needs less than render.
 */

export type Tier = 'unit' | 'db' | 'render';

export const UNIT: readonly string[] = [
  'test/api/errors.test.ts',
  'test/api/json-syntax-error.test.ts',
  'test/auth/*.test.ts',
  'test/catalog/demo-catalog.test.ts',
  'test/catalog/opendb-map.test.ts',
  'test/catalog/opendb-test-data.test.ts',
  'test/cli/errors.test.ts',
  'test/cli/help-examples.test.ts',
  'test/cli/parts-flag.test.ts',
  'test/cli/setting-flags.test.ts',
  'test/config.test.ts',
  'test/tiers.test.ts',
  'test/db/restart-policy.test.ts',
  'test/docs/architecture-doc.test.ts',
  'test/encode/ffmpeg-args.test.ts',
  'test/encode/h264-config.test.ts',
  'test/farm/camera.test.ts',
  'test/farm/canonical-build.test.ts',
  'test/farm/case-interior.test.ts',
  'test/farm/details.test.ts',
  'test/farm/model-lod.test.ts',
  'test/farm/model-placement.test.ts',
  'test/farm/placement.test.ts',
  'test/farm/proxy.test.ts',
  'test/farm/robustness.test.ts',
  'test/farm/seasonal.test.ts',
  'test/farm/slots.test.ts',
  'test/jobs/cache-key.test.ts',
  'test/jobs/chunk-plan.test.ts',
  'test/jobs/cost-model.test.ts',
  'test/jobs/run-attempt.test.ts',
  'test/model/*.test.ts',
  'test/part-models/artist-files.test.ts',
  'test/part-models/corpus.test.ts',
  'test/part-models/example-models.test.ts',
  'test/part-models/model-input.test.ts',
  'test/part-models/model-orientation.test.ts',
  'test/part-models/model-precheck.test.ts',
  'test/part-models/prepare-model.test.ts',
  'test/part-models/rgb-nodes.test.ts',
  'test/part-models/simplify-budget.test.ts',
  'test/part-models/texture-downsize.test.ts',
  'test/pregen/combination.test.ts',
  'test/pregen/progress.test.ts',
  'test/pregen/sources.test.ts',
  'test/pregen/ui.test.tsx',
  'test/render/tool-paths.test.ts',
  'test/storage/*.test.ts',
  'test/webhooks/signature-and-policy.test.ts',
];

export const DB: readonly string[] = [
  'test/api/admission.test.ts',
  'test/api/artifacts-route.test.ts',
  'test/api/auth-failures.test.ts',
  'test/api/auth.test.ts',
  'test/api/control-characters.test.ts',
  'test/api/data.test.ts',
  'test/api/database-outage.test.ts',
  'test/api/forwarded-headers.test.ts',
  'test/api/grid-color.test.ts',
  'test/api/hot-path-queries.test.ts',
  'test/api/job-environment.test.ts',
  'test/api/json-body.test.ts',
  'test/api/key-revocation.test.ts',
  'test/api/no-body.test.ts',
  'test/api/origin-binding.test.ts',
  'test/api/rate-limit.test.ts',
  'test/api/service.test.ts',
  'test/api/shared-signing-secret.test.ts',
  'test/api/submit-logging.test.ts',
  'test/catalog/importer.test.ts',
  'test/catalog/repository.test.ts',
  'test/catalog/seed-demo.test.ts',
  'test/db/embedded-supervisor.test.ts',
  'test/db/migrate.test.ts',
  'test/db/pg-errors.test.ts',
  'test/db/until-reachable.test.ts',
  'test/deploy/*.test.ts',
  'test/doctor/doctor-connections.test.ts',
  'test/jobs/fair-ageing.test.ts',
  'test/jobs/render-lifecycle.test.ts',
  'test/jobs/retention.test.ts',
  'test/jobs/row-retention.test.ts',
  'test/jobs/submit.test.ts',
  'test/jobs/task-map.test.ts',
  'test/jobs/worker-speed.test.ts',
  'test/top/top-chunks.test.ts',
  'test/top/top-gpu.test.ts',
];

/** every test file, whatever its tier */
export const ALL = ['test/**/*.test.ts', 'test/**/*.test.tsx'];
