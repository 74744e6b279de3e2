#!/usr/bin/env node
/**
 * Compiles src/ and farm/build.ts to dist/ (`npm run build`; `npm install` runs it as `prepare`),
 * so bin/render-farm starts without a TypeScript loader. esbuild transpiles file by file, keeping
 * the layout (dist/src/..., dist/farm/build.js): relative imports, lazy ones included, hold as
 * they are. Files read at run time (sql/, farm/src/, package.json) stay where they are and are
 * found from the package root (src/package-root.ts).
 *
 * Only changed files are rewritten, each by a rename, so a CLI started during a build never reads
 * a half-written file. dist/.built is written last, with the time the build read the sources:
 * bin/render-farm compares it with the sources' times to tell a stale build.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const started = new Date();
const t0 = performance.now();

/** The inputs; bin/render-farm's staleness check walks the same (keep the two in step). */
const INPUTS = ['src', 'farm/build.ts'];

function* sources(rel) {
  const abs = path.join(root, rel);
  if (statSync(abs).isFile()) {
    yield abs;
    return;
  }
  for (const e of readdirSync(abs, { withFileTypes: true })) {
    if (e.isDirectory()) yield* sources(path.join(rel, e.name));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) yield path.join(abs, e.name);
  }
}

const result = await build({
  absWorkingDir: root,
  entryPoints: INPUTS.flatMap((i) => [...sources(i)]),
  outdir: dist,
  outbase: root,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  write: false,
  logLevel: 'warning',
});

let written = 0;
const keep = new Set();
for (const file of result.outputFiles) {
  keep.add(file.path);
  let old = null;
  try {
    old = readFileSync(file.path);
  } catch {
    // a new file
  }
  if (old && Buffer.compare(old, file.contents) === 0) continue;
  mkdirSync(path.dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, file.contents);
  renameSync(tmp, file.path);
  written++;
}

// outputs of deleted sources would otherwise stay importable
let removed = 0;
function prune(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) prune(p);
    else if (e.name.endsWith('.js') && !keep.has(p)) {
      rmSync(p, { force: true });
      removed++;
    }
  }
}
prune(dist);

const stamp = path.join(dist, '.built');
writeFileSync(stamp, `${started.toISOString()}\n`);
utimesSync(stamp, started, started);
const ms = Math.round(performance.now() - t0);
console.log(`build: dist/ from ${keep.size} files (${written} written, ${removed} removed) in ${ms} ms`);
