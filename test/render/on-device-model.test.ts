/**
 * Chromium starts no on-device model service (docs/rendering.md): Chromium 156 launched its
 * utility process (~138 MB RSS) 3 min after start, whatever features were disabled, until the
 * engine's flags gave the optimization guide a performance class (chromium-args.ts). Slow: it
 * watches the engine's real Chromium for 4 min, so it runs only with RENDER_FARM_SLOW_TESTS=1;
 * test/render/units.test.ts checks the flag on every run.
 */
import { describe, expect, it } from 'vitest';
import { browserAfterAFrame, useTestEngine } from '../helpers/engine.js';
import { chromiumRole, processTree } from '../helpers/process-tree.js';
import { waitFor } from '../helpers/wait-for.js';

/** Chromium posts the service's launch 3 min after start; a minute more of margin */
const WATCH_MS = 240_000;

describe.runIf(process.env.RENDER_FARM_SLOW_TESTS)('Chromium left running for 4 min (RENDER_FARM_SLOW_TESTS)', () => {
  const engine = useTestEngine();

  it(
    'never starts the on-device model service',
    async () => {
      const browser = await browserAfterAFrame(engine);
      const onDeviceModel = () =>
        processTree(browser!.pid!).find((p) => chromiumRole(p.args).startsWith('utility:on_device_model'));
      // a wait that must run out: the service would show up at about 180 s, and stay
      const seen = await waitFor('the on-device model service', onDeviceModel, {
        timeoutMs: WATCH_MS,
        intervalMs: 5_000,
      }).catch((err: Error) => err);
      expect(seen, 'the on-device model service started').toBeInstanceOf(Error);
      expect((seen as Error).message).toMatch(/^timed out/);
      // the browser itself was there all along
      expect(processTree(browser!.pid!).map((p) => chromiumRole(p.args))).toContain('gpu-process');
    },
    WATCH_MS + 60_000,
  );
});
