/** Quick questions Node asks the stage page outside a capture: how fast it draws, whether its GL context is gone. */
import type { StageApi } from '../../../src/model/stage-contract.js';

/** The stage canvas's context, WebGL2 or 1, or null when it has none. */
function context(stage: StageApi): WebGL2RenderingContext | WebGLRenderingContext | null {
  const c = stage.canvas();
  return c.getContext('webgl2') || c.getContext('webgl');
}

/**
 * ms per frame of `frames` frames back to back (`__rfTimeFrames`, the doctor's probe): a
 * warm-up frame first (shader compiles), then the timed loop; one pixel read waits for the GPU.
 */
export function timeFrames(stage: StageApi, frames: number): number {
  const g = context(stage);
  if (!g) throw new Error('the stage canvas has no WebGL context');
  stage.renderFrame(0);
  g.readPixels(0, 0, 1, 1, g.RGBA, g.UNSIGNED_BYTE, new Uint8Array(4));
  const t0 = performance.now();
  for (let i = 0; i < frames; i++) stage.renderFrame(i);
  g.readPixels(0, 0, 1, 1, g.RGBA, g.UNSIGNED_BYTE, new Uint8Array(4));
  return (performance.now() - t0) / frames;
}

/** Whether the stage's WebGL context is lost (its GPU process died; `__rfContextLost`). */
export function contextLost(stage: StageApi): boolean {
  const g = context(stage);
  return !g || g.isContextLost();
}
