/**
 * Writes what the device benchmark (bench/device/run.py) needs and nothing more, into the folder
 * given as argv[2]: the farm stage page (stage.html, stage.js), cases.json (DEMO-GLASS and
 * the resolved options of the bench:render cases) and bench.js (the in-page timing loop,
 * the same as bench/render.ts's pure case). No Node is needed where it runs: Chromium loads
 * the page from a Python loopback server and POSTs its figures back.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStageBundle } from '../../farm/build.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { resolveRenderOptions, type RenderOptions } from '../../src/model/render-options.js';

const out = process.argv[2] ?? 'out';
mkdirSync(out, { recursive: true });
const b = await buildStageBundle();
writeFileSync(path.join(out, 'stage.js'), b.js);
writeFileSync(
  path.join(out, 'stage.html'),
  b.html.replace(
    '<script src="./stage.js"></script>',
    '<script src="./stage.js"></script>\n<script src="./bench.js"></script>',
  ),
);
const CASES: Array<{ name: string; options: RenderOptions }> = [
  { name: 'video-720p-cinematic', options: { format: 'video', profile: 'cinematic' } },
  { name: 'video-1080p-cinematic', options: { format: 'video', width: 1920, height: 1080, profile: 'cinematic' } },
  { name: 'sprite-512-cinematic', options: { format: 'sprite', profile: 'cinematic' } },
  { name: 'video-720p-fast', options: { format: 'video', profile: 'fast' } },
];
writeFileSync(
  path.join(out, 'cases.json'),
  JSON.stringify({
    build: demoStageBuild('DEMO-GLASS'),
    cases: CASES.map((c) => ({ name: c.name, options: { ...resolveRenderOptions(c.options), transparent: false } })),
  }),
);
copyFileSync(fileURLToPath(new URL('./bench.js', import.meta.url)), path.join(out, 'bench.js'));
console.log(`wrote ${out}`);
