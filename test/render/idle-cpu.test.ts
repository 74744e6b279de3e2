/**
 * No background CPU: the engine's Chromium, after rendering a frame and then left idle for 20 s,
 * runs no process a render does not need and uses under 2% of a core (docs/rendering.md: an on-device
 * model service used half a core for 90 s of a scale run). Real Chromium, /proc accounting.
 */
import { describe, expect, it } from 'vitest';
import { browserAfterAFrame, useTestEngine } from '../helpers/engine.js';
import { chromiumRole, processTree } from '../helpers/process-tree.js';
import { valueWithin } from '../helpers/time-bounds.js';

const IDLE_MS = 20_000;
/**
 * The processes a render uses. The storage service is a process of its own in every Chromium
 * since the storage service moved out of process: no switch keeps it in the browser short of
 * --single-process (which would put the GPU and the renderer there too); it does nothing idle.
 * No zygote: chromium-args.ts passes --no-zygote (the sandbox it forks for is off).
 */
const NEEDED = new Set(['browser', 'gpu-process', 'renderer', 'utility:storage.mojom.StorageService']);

describe('Chromium when idle', () => {
  const engine = useTestEngine();

  it('runs only the browser, GPU, one renderer and storage processes, and uses < 2% of a core for 20 s after a frame', async () => {
    const browser = await browserAfterAFrame(engine);
    const exited = new Promise<string>((resolve) =>
      browser!.once('exit', (code, signal) => resolve(`exited (${code ?? signal})`)),
    );

    const before = processTree(browser!.pid!);
    // the one deliberate fixed wait: the browser must stay up (and quiet) this long
    expect(await valueWithin(exited, IDLE_MS, 'still running')).toBe('still running');
    const after = processTree(browser!.pid!);

    const roles = after.map((p) => chromiumRole(p.args));
    const unneeded = after
      .filter((p) => !NEEDED.has(chromiumRole(p.args)))
      .map((p) => `${p.pid} ${p.args.slice(0, 200)}`);
    expect(unneeded, 'processes a render does not need').toEqual([]);
    // no spare renderer kept warm, no WebUI renderer: the page's only
    expect(roles.filter((r) => r === 'renderer')).toHaveLength(1);
    expect(roles.filter((r) => r === 'gpu-process')).toHaveLength(1);

    // CPU of the processes alive at both ends (one that started in between counts whole)
    const cpuBefore = new Map(before.map((p) => [p.pid, p.cpuSeconds]));
    const used = after.reduce((sum, p) => sum + p.cpuSeconds - (cpuBefore.get(p.pid) ?? 0), 0);
    const shareOfCore = used / (IDLE_MS / 1000);
    expect(shareOfCore, `${(shareOfCore * 100).toFixed(2)}% of a core while idle`).toBeLessThanOrEqual(0.02);
  }, 180_000);
});
