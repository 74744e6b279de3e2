/**
 * The console's page assets, built at run time on first request and memoised for the process
 * (as render/stage-bundle.ts does for the stage): src/console/ui/main.tsx bundled with esbuild
 * (Preact's JSX) into one script, and console.css as it is. Built from the sources in the
 * package, so `npm install` and `up` need nothing else and a stale dist/ cannot serve old pages.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

/** One served file with its validator. */
export interface ConsoleAsset {
  body: string;
  etag: string;
}

export interface ConsoleAssets {
  js: ConsoleAsset;
  css: ConsoleAsset;
}

const UI_DIR = path.join(PACKAGE_ROOT, 'src', 'console', 'ui');

function asset(body: string): ConsoleAsset {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

async function build(): Promise<ConsoleAssets> {
  // loaded here, not at the top: only a server that is asked for the console pays for esbuild
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    entryPoints: [path.join(UI_DIR, 'main.tsx')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120', 'firefox120', 'safari17'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: false,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const js = result.outputFiles[0];
  if (!js) throw new Error('esbuild produced no console bundle');
  const css = await fs.readFile(path.join(UI_DIR, 'console.css'), 'utf8').catch(() => '');
  return { js: asset(js.text), css: asset(css) };
}

let cached: Promise<ConsoleAssets> | null = null;

/** The console's script and stylesheet (built on first call, then reused). */
export function consoleAssets(): Promise<ConsoleAssets> {
  cached ??= build().catch((err: unknown) => {
    cached = null; // a later request tries again (a source being edited, a transient failure)
    throw err;
  });
  return cached;
}

/** The page shell: no inline script or style (the CSP allows neither). */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>render-farm console</title>
<link rel="stylesheet" href="/console/app.css">
<script defer src="/console/app.js"></script>
</head>
<body>
<div id="app"></div>
</body>
</html>
`;
