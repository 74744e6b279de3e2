/**
 * Dev-only: what each part of a build costs per frame on this machine. Loads variants of a
 * build (all parts; without cables; without case fans; ...) on the real stage and times the
 * same frames for each, interleaved over rounds (best of), so the differences are comparable
 * on a shared machine.
 *
 *   npx tsx tools/stage/cost.ts [--build DEMO-GLASS] [--profile fast] [--size 512x512] [--frames 24] [--rounds 3]
 *        [--scenes studio,forest]   (compare scenes instead of parts: forest has no mirror floor)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { loadConfig } from '../../src/config.js';
import { createRenderEngine } from '../../src/render/engine.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import type { Profile } from '../../src/model/render-defaults.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { toStageOptions, type StageBuild, type StageDetail, type StageInfo } from '../../src/model/stage-contract.js';
import { callStage } from '../../src/render/call-stage.js';

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
const without = (...cats: string[]): StageBuild => ({
  ...base,
  parts: Object.fromEntries(Object.entries(base.parts).filter(([c]) => !cats.includes(c))),
});

const scenes = flag('scenes', '');
const variants: { name: string; build: StageBuild; omit?: StageDetail[]; scene?: string }[] = scenes
  ? scenes.split(',').map((scene) => ({ name: `scene ${scene}`, build: base, scene }))
  : [
      { name: 'all', build: base },
      { name: '-cables', build: base, omit: ['cables'] },
      { name: '-fans', build: without('CaseFan') },
      { name: '-gpu', build: without('GPU') },
      { name: '-cooler', build: without('CPUCooler') },
      { name: 'case only', build: { parts: { PCCase: base.parts.PCCase }, state: null } },
    ];

/** CPU ms used so far by this process and its descendants (Chromium, llvmpipe threads); Linux only. */
function treeCpuMs(): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      parent.set(+d, +f[1]!);
      cpu.set(+d, (+f[11]! + +f[12]!) * 10);
    } catch {
      // gone
    }
  }
  let total = 0;
  for (const [pid, ms] of cpu)
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p))
      if (p === process.pid) {
        total += ms;
        break;
      }
  return total;
}

// the project's engine and GL policy, configured like every other command
const pool = (await createRenderEngine(loadConfig())).pool;
const best = new Map<string, { ms: number; cpu: number; info: StageInfo }>();
try {
  for (let r = 0; r < rounds; r++) {
    for (const v of variants) {
      const options = toStageOptions(
        {
          ...resolveRenderOptions({ format: 'sprite', width, height, profile, scene: (v.scene ?? 'studio') as never }),
          frames: 72,
        },
        { omit: v.omit },
      );
      const res = await pool.use(async ({ page }) => {
        const info = await callStage(page, 'renderStage.load', v.build, options);
        const c0 = treeCpuMs();
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
        const cpu = (treeCpuMs() - c0) / frames;
        await page.evaluate(() => window.renderStage!.dispose());
        return { ms, cpu, info };
      });
      const prev = best.get(v.name);
      if (!prev) best.set(v.name, res);
      else best.set(v.name, { ...prev, ms: Math.min(prev.ms, res.ms), cpu: Math.min(prev.cpu, res.cpu) });
    }
  }
} finally {
  await pool.close();
}
console.log(`${code} ${profile} ${width}x${height}, best of ${rounds} x ${frames} frames`);
console.table(
  [...best].map(([name, b]) => ({
    variant: name,
    'ms/frame': +b.ms.toFixed(1),
    'cpu ms/frame': +b.cpu.toFixed(1),
    triangles: b.info.triangles,
    draws: b.info.drawCalls,
  })),
);
