/**
 * Dev-only: renders a sample build through the project's render engine (the same Chromium
 * flags, GL policy and configuration as production) and writes PNGs to /tmp/farm-snap/
 * (look at them), plus ms/frame per profile.
 *
 *   npx tsx tools/stage/snapshot.ts [--build glassAirBuild|DEMO-GLASS] [--scene studio] [--profile cinematic]
 *        [--size 512x512] [--frames 0,30,60,90] [--of 120] [--bench 10] [--grid] [--no-bg]
 *        [--winter] [--spring] [--zoom 1] [--offset 0] [--transparent] [--gl auto|egl|swiftshader]
 *        [--state '{"radiator":{"slot":"front"}}']
 * Chromium and the GL backend come from the configuration (CHROMIUM_PATH, RENDER_FARM_GL) unless --gl is given.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { loadConfig } from '../../src/config.js';
import { renderOptionsSchema, resolveRenderOptions } from '../../src/model/render-options.js';
import { toStageOptions } from '../../src/model/stage-contract.js';
import { createRenderEngine } from '../../src/render/engine.js';
import { SAMPLE_BUILDS } from './sample-builds.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const out = arg('out', '/tmp/farm-snap');
mkdirSync(out, { recursive: true });
const [width, height] = arg('size', '512x512').split('x').map(Number) as [number, number];
const frames = Number(arg('of', '120'));
const buildName = arg('build', 'glassAirBuild');
const sample = SAMPLE_BUILDS[buildName];
const build = structuredClone(sample ?? demoStageBuild(buildName));
if (process.argv.includes('--state')) build.state = JSON.parse(arg('state', 'null'));
const profiles = arg('profile', 'cinematic').split(',');
const scenes = arg('scene', 'studio').split(',');
const frameList = arg('frames', '0').split(',').map(Number);
const bench = Number(arg('bench', '0'));
const transparent = flag('transparent');

const cfg = loadConfig({ glBackend: process.argv.includes('--gl') ? arg('gl', 'auto') : undefined });
const engine = await createRenderEngine(cfg, { log: (line) => console.log(line) });
try {
  const info = await engine.info();
  console.log('gl', info.backend, info.glRenderer);
  for (const scene of scenes) {
    for (const profile of profiles) {
      // the options as the API would resolve them, then the turn length asked for here
      const request = renderOptionsSchema.parse({
        format: 'video',
        width,
        height,
        profile,
        scene,
        showBackground: !flag('no-bg'),
        showGrid: flag('grid'),
        winterMode: flag('winter'),
        springMode: flag('spring'),
        cameraOffsetX: Number(arg('offset', '0')),
        cameraZoom: Number(arg('zoom', '1')),
      });
      const options = { ...resolveRenderOptions(request), frames };
      const t0 = Date.now();
      const pngs = await engine.stills({ build, options, indices: frameList, transparent });
      console.log(`${scene}/${profile}: ${frameList.length} frame(s) in ${Date.now() - t0} ms (load included)`);
      pngs.forEach((png, k) => {
        const file = join(out, `${buildName}-${scene}-${profile}-${width}x${height}-f${frameList[k]}.png`);
        writeFileSync(file, png);
        console.log('wrote', file);
      });
      if (bench > 0) {
        const ms = await engine.pool.use(async ({ page }) => {
          await page.evaluate(
            `window.renderStage.load(${JSON.stringify(build)}, ${JSON.stringify(toStageOptions(options, { transparent }))})`,
          );
          const result = (await page.evaluate(`(() => {
            const stage = window.renderStage;
            const gl = stage.canvas().getContext('webgl2');
            const px = new Uint8Array(4);
            stage.renderFrame(0);
            gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
            const t = performance.now();
            for (let i = 1; i <= ${bench}; i++) {
              stage.renderFrame(i);
              gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px); // wait for the frame to finish
            }
            return (performance.now() - t) / ${bench};
          })()`)) as number;
          await page.evaluate('window.renderStage.dispose()');
          return result;
        });
        console.log(`BENCH ${scene}/${profile} ${width}x${height}: ${ms.toFixed(1)} ms/frame`);
      }
    }
  }
} finally {
  await engine.close();
}
