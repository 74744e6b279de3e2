/** A render engine for one test file (close it in afterAll): the production engine on an empty environment. */
import { loadConfig } from '../../src/config.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';

export function testEngine(): Promise<RenderEngine> {
  // an empty env: the developer's shell must not change test outcomes
  return createRenderEngine(loadConfig({}, {}));
}
