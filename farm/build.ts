/**
 * Bundles the stage page (farm/src/stage.ts) into one minified IIFE with esbuild, plus the
 * minimal HTML page that loads it. The render pipeline serves both from a loopback server
 * and blocks every other request, so the page needs nothing else. Cached per process.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { PACKAGE_ROOT } from '../src/package-root.js';

export interface StageBundle {
  /** the page: loads ./stage.js, a body with no margins */
  html: string;
  /** the bundled stage script (IIFE) */
  js: string;
}

export const STAGE_HTML = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>render-farm stage</title>
<style>html,body{margin:0;padding:0;background:transparent;overflow:hidden}canvas{display:block}</style>
</head>
<body>
<script src="./stage.js"></script>
</body>
</html>
`;

let cached: Promise<StageBundle> | null = null;

/** The stage bundle (built on first call, then reused for the life of the process). */
export function buildStageBundle(): Promise<StageBundle> {
  cached ??= bundle().catch((err: unknown) => {
    cached = null; // let a later call retry after a transient failure
    throw err;
  });
  return cached;
}

async function bundle(): Promise<StageBundle> {
  // from the package root: the compiled dist/farm/build.js bundles the same farm/src sources
  const entry = path.join(PACKAGE_ROOT, 'farm', 'src', 'stage.ts');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    minify: true,
    sourcemap: false,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no stage bundle');
  return { html: STAGE_HTML, js: file.text };
}
