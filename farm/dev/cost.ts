/**
 * Dev-only: what each part of a build costs per frame on this machine. Loads variants of a
 * build (all parts; without cables; without case fans; ...) on the real stage and times the
 * same frames for each, interleaved over rounds (best of), so the differences are comparable
 * on a shared machine.
 *
 *   npx tsx farm/dev/cost.ts [--build DEMO-GLASS] [--profile fast] [--size 512x512] [--frames 24] [--rounds 3]
 */
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { BrowserPool } from '../../src/render/browser-pool.js';
import { resolveRenderOptions, type Profile } from '../../src/render/options.js';
import { farmStageBundle } from '../../src/render/stage-bundle.js';
import { findChromium } from '../../src/render/tool-paths.js';
import { demoStageBuild } from '../../test/render/helpers/demo-build.js';
import type { StageBuild, StageInfo, StageOptions } from '../src/contract.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const code = flag('build', 'DEMO-GLASS');
if (!DEMO_BUILDS.some((b) => b.shareCode === code)) throw new Error(`no demo build ${code}`);
const [width, height] = flag('size', '512x512').split('x').map(Number) as [number, number];
const frames = Number(flag('frames', '24'));
const rounds = Number(flag('rounds', '3'));
const profile = flag('profile', 'fast') as Profile;
const base = demoStageBuild(code);
const without = (...cats: string[]): StageBuild => ({ ...base, parts: Object.fromEntries(Object.entries(base.parts).filter(([c]) => !cats.includes(c))) });

const variants: { name: string; build: StageBuild; omit?: string[] }[] = [
  { name: 'all', build: base },
  { name: '-cables', build: base, omit: ['cables'] },
  { name: '-fans', build: without('CaseFan') },
  { name: '-gpu', build: without('GPU') },
  { name: '-cooler', build: without('CPUCooler') },
  { name: 'case only', build: { parts: { PCCase: base.parts.PCCase }, state: null } },
];

const pool = new BrowserPool({ chromiumPath: (await findChromium({})).path, glBackend: 'auto', stage: farmStageBundle, noSandbox: true });
const best = new Map<string, { ms: number; info: StageInfo }>();
try {
  for (let r = 0; r < rounds; r++) {
    for (const v of variants) {
      const options: StageOptions = { ...resolveRenderOptions({ format: 'sprite', width, height, profile }), frames: 72, transparent: false, omit: v.omit };
      const res = await pool.use(async ({ page }) => {
        const info = (await page.evaluate((b, o) => window.renderStage!.load(b, o), v.build as never, options as never)) as StageInfo;
        const ms = (await page.evaluate((n) => {
          const stage = window.renderStage!;
          const gl = stage.canvas().getContext('webgl2')!;
          const px = new Uint8Array(4);
          stage.renderFrame(0);
          gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
          const t = performance.now();
          for (let i = 1; i <= n; i++) stage.renderFrame(i);
          gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
          return (performance.now() - t) / n;
        }, frames)) as number;
        await page.evaluate(() => window.renderStage!.dispose());
        return { ms, info };
      });
      const prev = best.get(v.name);
      if (!prev || res.ms < prev.ms) best.set(v.name, res);
    }
  }
} finally {
  await pool.close();
}
console.log(`${code} ${profile} ${width}x${height}, best of ${rounds} x ${frames} frames`);
console.table([...best].map(([name, b]) => ({ variant: name, 'ms/frame': +b.ms.toFixed(1), triangles: b.info.triangles, draws: b.info.drawCalls })));
