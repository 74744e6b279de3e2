/**
 * Which WebGL backends a launch tries, and what happens when the GPU process dies under a render.
 * Pure decisions (unit-tested; a real GPU crash cannot be produced on a CPU machine), applied by
 * browser-pool.ts: a render whose GPU process crashed is rendered again on the CPU and says so in
 * its warnings, never fails for it; a GPU that keeps crashing is left out of later launches.
 */
import type { GlBackendName } from './chromium-args.js';

/** GPU crashes after which a pool stops trying the GPU (each costs a relaunch and a re-render). */
export const MAX_GPU_CRASHES = 2;

/**
 * The backends a launch tries, in order. auto: the GPU, then ANGLE over EGL (Mesa llvmpipe or a
 * vendor's EGL), then SwiftShader; the npm-packaged Chromium has no EGL backend (only Vulkan and
 * SwiftShader), so EGL would only fail first there. An explicit backend is tried alone.
 */
export function launchOrder(
  requested: 'auto' | GlBackendName,
  chromiumSource: 'config' | 'system' | 'package',
  gpuCrashes = 0,
): GlBackendName[] {
  if (requested !== 'auto') return [requested];
  const order: GlBackendName[] = chromiumSource === 'package' ? ['gpu', 'swiftshader'] : ['gpu', 'egl', 'swiftshader'];
  return gpuCrashes >= MAX_GPU_CRASHES ? order.filter((b) => b !== 'gpu') : order;
}

/** The backends to render on after the GPU crashed: the CPU ones of the launch order. */
export function cpuOrder(order: GlBackendName[]): GlBackendName[] {
  const cpu = order.filter((b) => b !== 'gpu');
  return cpu.length ? cpu : ['egl', 'swiftshader'];
}

/** What a render on a GPU session saw. */
export interface GpuRenderOutcome {
  /** the session drew on a hardware GPU (gpu, or egl on a vendor driver) */
  onGpu: boolean;
  /** the render threw */
  failed: boolean;
  /** the browser disconnected or the page closed */
  browserGone: boolean;
  /** the page's WebGL context was lost (the GPU process died and Chromium restarted it) */
  contextLost: boolean;
  /** the render was aborted by its caller (a cancel or a time limit): not the GPU's doing */
  aborted: boolean;
}

/**
 * After a render: keep its result ('ok'), render it again on the CPU ('retry-on-cpu': the GPU
 * process died, which a lost context shows even when the render did not throw, its frames then
 * being blank), or pass the failure on ('rethrow': not a GPU crash, or not on a GPU).
 */
export function afterGpuRender(o: GpuRenderOutcome): 'ok' | 'retry-on-cpu' | 'rethrow' {
  const crashed = o.onGpu && !o.aborted && (o.browserGone || o.contextLost);
  if (crashed) return 'retry-on-cpu';
  return o.failed ? 'rethrow' : 'ok';
}
