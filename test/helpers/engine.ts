/** A render engine for one test file: the production engine on an empty environment. */
import { loadConfig } from '../../src/config.js';
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
