/**
 * Renders through a RenderEngine with the renderer's `outputs` and `transparent` settings.
 * createRenderEngine spreads its request into renderBuild, so these reach the renderer; they
 * are not (yet) in EngineRequest's type, hence this one typed door instead of casts elsewhere.
 */
import type { EngineRequest, RenderEngine } from '../render/engine.js';
import type { RenderRequest, RenderResult } from '../render/renderer.js';

/** An engine request plus which files to write and whether the background is transparent. */
export type EngineRenderRequest = EngineRequest & Pick<RenderRequest, 'outputs' | 'transparent'>;

/** Runs one render on `engine`. */
export function engineRender(engine: RenderEngine, req: EngineRenderRequest): Promise<RenderResult> {
  return engine.render(req);
}
