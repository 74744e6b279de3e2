/**
 * The one sentence `up`, `doctor` and `/health` say when renders run on the slow path:
 * SwiftShader (CPU WebGL) measured about 3x slower than ANGLE over EGL (Mesa llvmpipe) on the
 * same machine (docs/benchmarks.md, bench:render); the npm-packaged Chromium has only SwiftShader.
 */
export const SWIFTSHADER_SLOWDOWN = 3;

export function rendererNote(backend: string, chromiumSource: 'config' | 'system' | 'package'): string | null {
  if (backend !== 'swiftshader') return null;
  return chromiumSource === 'package'
    ? `renders use the npm-packaged Chromium with SwiftShader, about ${SWIFTSHADER_SLOWDOWN}x slower than a system Chromium with Mesa over EGL: apt-get install -y chromium libgl1-mesa-dri libegl1 (or set CHROMIUM_PATH)`
    : `renders use SwiftShader, about ${SWIFTSHADER_SLOWDOWN}x slower than Mesa over EGL: apt-get install -y libgl1-mesa-dri libegl1, or run workers on a GPU host`;
}
