/**
 * Writes the farm stage page (html and js, as farm/build.ts bundles it) to argv[2] as JSON: the
 * GPU kit (kit.ts) serves it as it is, so the machine it runs on needs no esbuild.
 */
import { writeFileSync } from 'node:fs';
import { buildStageBundle } from '../../farm/build.js';

const b = await buildStageBundle();
writeFileSync(process.argv[2] ?? 'stage.json', JSON.stringify({ html: b.html, js: b.js }));
