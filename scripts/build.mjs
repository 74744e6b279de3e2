#!/usr/bin/env node
/**
 * Compiles the CLI to dist/ (`npm run build`; `npm install` runs it as `prepare`), so
 * bin/render-farm starts without a TypeScript loader. One esbuild bundle with code splitting:
 * dist/cli/index.js and the chunks each command loads lazily (dist/chunks/), plus
 * dist/farm/build.js, which src/render/stage-bundle.ts loads by a computed import. kysely and zod
 * are bundled in: as hundreds of small ES modules each, loading them cost more than the rest of
 * a start (kysely alone ~260 CPU ms on the 2-core dev machine, ~35 bundled). commander too, which
 * every start loads: since 15 it is ESM only, and loaded from node_modules it cost `--version`
 * ~4% more CPU and 1.5 MiB more peak memory than 14's CommonJS; bundled, neither. Every other package
 * stays in node_modules (native code, binaries and files found by path). Files read at run time
 * (sql/, farm/src/, package.json) stay where they are and are found from the package root
 * (src/package-root.ts).
 *
 * Only changed files are rewritten, each by a rename, so a CLI starting during a build never reads
 * a half-written file; chunks a build no longer makes are removed a day later, not at once, since a
 * process started before the build (a long `up`) may still load them. dist/.built is written last,
 * dated when the build read the sources: bin/render-farm compares the sources' times with it.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const started = new Date();
const t0 = performance.now();
const INLINE = ['kysely', 'zod', 'commander'];
const RETIRED_FOR_MS = 24 * 3600_000;

/** Bare imports stay imports of node_modules, but for INLINE. */
const externals = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      INLINE.some((p) => args.path === p || args.path.startsWith(`${p}/`))
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

// the inputs are src/ and farm/build.ts: bin/render-farm's staleness check walks the same
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    'cli/index': 'src/cli/index.ts',
    'cli/flush-output': 'src/cli/flush-output.ts',
    'farm/build': 'farm/build.ts',
    // forked for each model preparation (src/part-models/prepare-isolated.ts)
    'part-models/prepare-child': 'src/part-models/prepare-child.ts',
  },
  outdir: dist,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  jsx: 'automatic',
  plugins: [externals],
  write: false,
  logLevel: 'warning',
});

let written = 0;
const current = new Set();
for (const file of result.outputFiles) {
  current.add(file.path);
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

// outputs of earlier builds: noted when first seen retired, removed a day after
const retiredFile = path.join(dist, '.retired.json');
let retired = {};
try {
  retired = JSON.parse(readFileSync(retiredFile, 'utf8'));
} catch {
  // none yet
}
const stillRetired = {};
let removed = 0;
function prune(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) prune(p);
    else if (e.name.endsWith('.js') && !current.has(p)) {
      const rel = path.relative(dist, p);
      const since = retired[rel] ?? started.getTime();
      if (started.getTime() - since >= RETIRED_FOR_MS) {
        rmSync(p, { force: true });
        removed++;
      } else stillRetired[rel] = since;
    }
  }
}
prune(dist);
writeFileSync(retiredFile, JSON.stringify(stillRetired, null, 1) + '\n');

const stamp = path.join(dist, '.built');
writeFileSync(stamp, `${started.toISOString()}\n`);
utimesSync(stamp, started, started);
const ms = Math.round(performance.now() - t0);
console.log(`build: dist/ (${current.size} files, ${written} written, ${removed} removed) in ${ms} ms`);
