/**
 * The GPU backend on a machine without a GPU (the CI and dev machines): `auto` falls back to the
 * CPU saying why in one line, and `--gl gpu` fails naming what is missing. Real Chromium.
 * Where a GPU exists these two tests are skipped (bench/device/README.md measures that path).
 */
import { describe, expect, it } from 'vitest';
import { childEnvironment, loadConfig } from '../../src/config.js';
import { createRenderEngine } from '../../src/render/engine.js';
import { findGpu, GpuNotFoundError } from '../../src/render/gpu-probe.js';
import { findChromium } from '../../src/render/tool-paths.js';

const cfg = loadConfig({}, {});
const gpu = findGpu((await findChromium(cfg)).path, childEnvironment());

describe.skipIf(gpu.found)('GL backend without a GPU', () => {
  it('auto renders on the CPU and says in one line why no GPU', async () => {
    const lines: string[] = [];
    const engine = await createRenderEngine(cfg, { models: null, log: (l) => lines.push(l) });
    try {
      const info = await engine.info();
      expect(['egl', 'swiftshader']).toContain(info.backend);
      expect(info.gpu.found).toBe(false);
      expect(info.gpu.detail).toMatch(/^none found \(CPU: (egl llvmpipe|egl SwiftShader|swiftshader SwiftShader)\): /);
      expect(info.gpu.detail).toContain(gpu.found ? '' : gpu.reason);
      const said = lines.filter((l) => l.includes('no GPU'));
      expect(said).toEqual([
        `render: WebGL via ${info.backend} (${info.glRenderer}); no GPU: ${gpu.found ? '' : gpu.reason}`,
      ]);
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('--gl gpu fails with an error naming what is missing, before launching Chromium', async () => {
    const engine = await createRenderEngine(loadConfig({ glBackend: 'gpu' }, {}), { models: null });
    try {
      const err = await engine.info().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(GpuNotFoundError);
      expect(err).toMatchObject({ code: 'gpu_not_found', status: 503, exitCode: 1 });
      expect((err as Error).message).toBe(
        `no GPU for WebGL (${gpu.found ? '' : gpu.reason}): ${gpu.found ? '' : gpu.fix}, or use --gl auto`,
      );
    } finally {
      await engine.close();
    }
  }, 60_000);
});
