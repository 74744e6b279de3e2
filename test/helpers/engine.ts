/** A render engine for one test file: the production engine on an empty environment. */
import { loadConfig } from '../../src/config.js';
import { PermanentRenderError } from '../../src/jobs/errors.js';
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
