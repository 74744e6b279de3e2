/**
 * Dev-only: renders a sample build through real headless Chromium and writes PNGs to
 * /tmp/farm-snap/ (look at them), plus ms/frame per profile.
 *
 *   npx tsx farm/dev/snapshot.ts [--build glassAirBuild] [--scene studio] [--profile cinematic]
 *        [--size 512x512] [--frames 0,30,60,90] [--of 120] [--bench 10] [--grid] [--no-bg]
 *        [--winter] [--spring] [--zoom 1] [--offset 0] [--state '{"radiator":{"slot":"front"}}']
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { buildStageBundle } from '../build.js';
import { DEFAULT_GRID, type Profile, type Scene } from '../../src/render/options.js';
import type { StageBuild, StageOptions } from '../src/contract.js';
import { SAMPLE_BUILDS } from './sample-builds.js';
import { DEMO_BUILDS, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import type { Category, Part } from '../../src/catalog/types.js';

/** A demo catalog build (e.g. DEMO-GLASS) as a StageBuild, or undefined. */
function demoStageBuild(shareCode: string): StageBuild | undefined {
  const demo = DEMO_BUILDS.find((b) => b.shareCode === shareCode);
  if (!demo) return undefined;
  const byId = new Map(DEMO_PARTS.map((p) => [p.id, p]));
  const parts: Partial<Record<Category, Part[]>> = {};
  for (const [cat, ids] of Object.entries(demo.parts) as [Category, string[]][]) parts[cat] = ids.map((id) => byId.get(id)!).filter(Boolean);
  return { parts, state: demo.interactiveState ?? null };
}

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
const build = structuredClone(SAMPLE_BUILDS[buildName] ?? demoStageBuild(buildName));
if (!build) throw new Error(`no sample build ${buildName}; have ${Object.keys(SAMPLE_BUILDS).join(', ')} and the demo share codes`);
if (process.argv.includes('--state')) build.state = JSON.parse(arg('state', 'null'));
const profiles = arg('profile', 'cinematic').split(',') as Profile[];
const scenes = arg('scene', 'studio').split(',') as Scene[];
const frameList = arg('frames', '0').split(',').map(Number);
const bench = Number(arg('bench', '0'));

const bundle = await buildStageBundle();
const server = createServer((req, res) => {
  if (req.url === '/' || req.url === '/index.html') res.writeHead(200, { 'content-type': 'text/html' }).end(bundle.html);
  else if (req.url === '/stage.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle.js);
  else res.writeHead(404).end();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as { port: number }).port;
const profileDir = mkdtempSync(join(tmpdir(), 'farm-chrome-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless=new',
    '--no-sandbox',
    `--use-gl=${arg('gl', 'angle')}`,
    `--use-angle=${arg('angle', 'gl-egl')}`,
    // llvmpipe is on Chromium's GPU blocklist: without this WebGL is unavailable with gl-egl
    '--ignore-gpu-blocklist',
    ...(arg('angle', 'gl-egl') === 'swiftshader' ? ['--enable-unsafe-swiftshader'] : []),
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
    `--user-data-dir=${profileDir}`,
  ],
});
try {
  const page = await browser.newPage();
  page.on('console', (m) => console.log('[page]', m.text()));
  page.on('pageerror', (e) => console.log('[page error]', e));
  page.on('request', (r) => {
    if (!r.url().startsWith(`http://127.0.0.1:${port}/`)) console.log('[unexpected request]', r.url());
  });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => !!window.renderStage);
  console.log('gl', await page.evaluate(() => window.renderStage!.glInfo()));
  for (const scene of scenes) {
    for (const profile of profiles) {
      const options: StageOptions = {
        width,
        height,
        profile,
        scene,
        showBackground: !flag('no-bg'),
        showGrid: flag('grid'),
        gridSettings: DEFAULT_GRID,
        winterMode: flag('winter'),
        springMode: flag('spring'),
        cameraOffsetX: Number(arg('offset', '0')),
        cameraZoom: Number(arg('zoom', '1')),
        frames,
        transparent: flag('transparent'),
      };
      const t0 = Date.now();
      const info = await page.evaluate((b, o) => window.renderStage!.load(b, o), build, options);
      console.log(`${scene}/${profile} load ${Date.now() - t0} ms, ${info.triangles} triangles, ${info.drawCalls ?? "?"} draw calls, warnings: ${JSON.stringify(info.warnings)}`);
      for (const f of frameList) {
        const data = await page.evaluate((i) => {
          window.renderStage!.renderFrame(i);
          return window.renderStage!.canvas().toDataURL('image/png');
        }, f);
        const file = join(out, `${buildName}-${scene}-${profile}-${width}x${height}-f${f}.png`);
        writeFileSync(file, Buffer.from(data.split(',')[1]!, 'base64'));
        console.log('wrote', file);
      }
      if (bench > 0) {
        const ms = await page.evaluate((n) => {
          const stage = window.renderStage!;
          const gl = stage.canvas().getContext('webgl2')!;
          const px = new Uint8Array(4);
          stage.renderFrame(0);
          gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
          const t = performance.now();
          for (let i = 1; i <= n; i++) {
            stage.renderFrame(i);
            gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px); // wait for the frame to finish
          }
          return (performance.now() - t) / n;
        }, bench);
        console.log(`BENCH ${scene}/${profile} ${width}x${height}: ${ms.toFixed(1)} ms/frame`);
      }
    }
  }
} finally {
  await browser.close();
  server.close();
  rmSync(profileDir, { recursive: true, force: true });
}
