/**
 * Loads the farm stage page (farm/build.ts bundles it with esbuild) once per process.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../package-root.js';
import type { StageBundle } from './stage-server.js';

/** The farm's build module: the compiled one beside the compiled CLI (scripts/build.mjs), else the source. */
function farmBuildSpecifier(): string {
  const compiled = import.meta.url.endsWith('.js');
  return compiled ? pathToFileURL(path.join(PACKAGE_ROOT, 'dist', 'farm', 'build.js')).href : '../../farm/build.js';
}

let cached: Promise<StageBundle> | null = null;

/** The real farm stage bundle, built on first use and memoised. */
export function farmStageBundle(): Promise<StageBundle> {
  if (!cached) {
    cached = (async () => {
      // a computed specifier: the farm bundle is loaded lazily, only by processes that render
      const mod = (await import(farmBuildSpecifier())) as { buildStageBundle: () => Promise<StageBundle> };
      return mod.buildStageBundle();
    })();
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}
