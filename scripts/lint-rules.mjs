#!/usr/bin/env node
/**
 * Source rules an import graph cannot see (run by `npm run lint:rules` and CI):
 * - only src/config.ts reads the environment (one config pipeline: defaults < env < flags);
 * - no `as unknown as` in src/jobs/ (job payloads and stored requests are parsed, not cast);
 * - no `setTimeout(`/`sleep(`/`delay(` in test/ outside test/helpers/ (tests wait on a condition with
 *   waitFor, bound a promise with time-bounds.ts; allow-list below with reasons).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function* files(dir) {
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(rel);
    else if (/\.(ts|tsx|mjs|js)$/.test(e.name)) yield rel;
  }
}

const RULES = [
  { dirs: ['src', 'farm'], allow: ['src/config.ts'], pattern: /\bprocess\.env\b/, message: 'reads process.env: add the setting to src/config.ts and take it from Config' },
  { dirs: ['src/jobs'], allow: [], pattern: /\bas unknown as\b/, message: 'casts through unknown: parse the value with its zod schema instead' },
  {
    dirs: ['test'],
    allow: [
      ...files('test/helpers'), // wait-for.ts and time-bounds.ts: the one place timers live
      'test/render/capture-paths.test.ts', // page-side encoder stub defers its error callback (source text, not a wait)
      'test/temp-dirs.test.ts', // a child process that idles as a live owner (source text, not a wait)
    ],
    pattern: /\b(setTimeout|sleep|delay)\(/,
    message: 'waits a fixed time: wait for the condition (test/helpers/wait-for.ts) or bound the promise (test/helpers/time-bounds.ts)',
  },
];

const problems = [];
for (const rule of RULES) {
  for (const dir of rule.dirs) {
    for (const file of files(dir)) {
      if (rule.allow.includes(file)) continue;
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (rule.pattern.test(line)) problems.push(`${file}:${i + 1}: ${rule.message}`);
        });
    }
  }
}
for (const p of problems) console.error(p);
if (problems.length) {
  console.error(`lint:rules: ${problems.length} problem${problems.length > 1 ? 's' : ''}`);
  process.exit(1);
}
console.log('lint:rules: ok');
