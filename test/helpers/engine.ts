/** A render engine for one test file: the production engine on an empty environment. */
import { expect } from 'vitest';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { loadConfig } from '../../src/config.js';
import { PermanentRenderError } from '../../src/jobs/errors.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import { perFile } from './per-file.js';

export function testEngine(): Promise<RenderEngine> {
  // an empty env: the developer's shell must not change test outcomes
  return createRenderEngine(loadConfig({}, {}));
}

/** This file's engine (testEngine), started in beforeAll and closed in afterAll. */
export function useTestEngine(): RenderEngine {
  return perFile('the render engine', testEngine, (e) => e.close());
}

/** The message of failingWhile's injected failure. */
export const INJECTED_FAILURE = 'injected failure: the scene could not be built';

/**
 * `engine`, but every render and chunk fails for good (PermanentRenderError: no queue retry) while
 * `failing()` holds; closing it leaves `engine` open (the test closes that).
 */
export function failingWhile(engine: RenderEngine, failing: () => boolean): RenderEngine {
  return {
    ...engine,
    close: async () => {},
    render: async (req) => {
      if (failing()) throw new PermanentRenderError(INJECTED_FAILURE);
      return engine.render(req);
    },
    renderChunk: async (req) => {
      if (failing()) throw new PermanentRenderError(INJECTED_FAILURE);
      return engine.renderChunk(req);
    },
  };
}

/** engine's Chromium process, once it has drawn a frame (a small still of the demo stage). */
export async function browserAfterAFrame(engine: RenderEngine) {
  const [png] = await engine.stills({
    build: demoStageBuild(),
    options: resolveRenderOptions({ format: 'sprite', width: 256, height: 256, profile: 'fast' }),
    indices: [0],
  });
  expect(png!.length).toBeGreaterThan(1000);
  const browser = await engine.pool.use(async (s) => s.page.browser().process());
  expect(browser?.pid).toBeGreaterThan(0);
  return browser!;
}
