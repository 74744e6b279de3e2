/**
 * Loads the farm stage page (farm/build.ts bundles it with esbuild) once per process.
 */
import type { StageBundle } from './stage-server.js';

let cached: Promise<StageBundle> | null = null;

/** The real farm stage bundle, built on first use and memoised. */
export function farmStageBundle(): Promise<StageBundle> {
  if (!cached) {
    cached = (async () => {
      // a computed specifier: the farm bundle is loaded lazily, only by processes that render
      const spec = '../../farm/build.js';
      const mod = (await import(spec)) as { buildStageBundle: () => Promise<StageBundle> };
      return mod.buildStageBundle();
    })();
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}
