/**
 * Model preparation benchmark: time and peak memory (the child's VmHWM, native allocations
 * included) of prepareModelIsolated, the path every entry point takes, on models made here with
 * src/part-models/model-sketch.ts (nothing downloaded):
 *
 * - case-211k: a case shell with 2 mm ridges (30k triangles) and 15,000 separate screw heads
 *   (180k) joined into one mesh, 210k in all, over the 150k budget: like the real case docs/part-models.md
 *   reports, the simplifier alone stops above the budget at any error bound
 * - gpu-4k-texture: a GPU whose shroud carries a 4096 px PNG (resized to 2048, WebP)
 * - *-draco: the same models Draco-compressed (KHR_draco_mesh_compression), as Blender writes them
 *
 *   npm run bench:prepare [-- --runs 2]
 *
 * Sequential, best of `--runs` for time, the highest peak for memory. Not a test: numbers for
 * docs/benchmarks.md, on whatever machine runs it.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Logger, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS, KHRDracoMeshCompression } from '@gltf-transform/extensions';
import { join, prune } from '@gltf-transform/functions';
import { demoPart } from '../src/catalog/demo-catalog.js';
import { modelInputFromBytes } from '../src/part-models/model-input.js';
import { DEFAULT_PREPARE_LIMITS, type ModelLimits } from '../src/part-models/model-limits.js';
import { ModelSketch } from '../src/part-models/model-sketch.js';
import { prepareModelIsolated } from '../src/part-models/prepare-isolated.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 2;
const limits: ModelLimits = {
  modelMaxBytes: 64 * 1024 * 1024,
  modelMaxTriangles: 150_000,
  modelMaxTextureSize: 2048,
  modelMaxNodes: 1000,
  ...DEFAULT_PREPARE_LIMITS,
};

/** 30k triangles of ridged shell and 15,000 separate 4 mm screw heads (180k), joined into one mesh as exporters do. */
async function case211k(): Promise<ModelSketch> {
  const f = new ModelSketch('case');
  f.doc.setLogger(new Logger(Logger.Verbosity.WARN));
  f.box(
    {
      size: [0.23, 0.485, 0.47],
      at: [0, 0.2425, 0],
      subdivisions: 50,
      relief: 0.002,
      color: '#202020',
      material: 'steel',
    },
    'shell',
  );
  for (let i = 0; i < 15_000; i++) {
    const [x, y, z] = [i % 25, Math.floor(i / 25) % 24, Math.floor(i / 600)];
    f.box(
      {
        size: [0.004, 0.004, 0.004],
        at: [-0.108 + 0.009 * x, 0.02 + 0.019 * y, -0.22 + 0.018 * z],
        color: '#808080',
        material: 'screw',
      },
      `screw${i}`,
    );
  }
  // one node per material, as an export with applied transforms and joined objects has
  await f.doc.transform(join({ keepNamed: false }), prune());
  return f;
}

async function gpu4k(): Promise<ModelSketch> {
  const f = new ModelSketch('gpu');
  await f.texturedBox(
    4096,
    { size: [0.126, 0.061, 0.305], color: '#ffffff', material: 'shroud', subdivisions: 20, relief: 0.002 },
    'shroud',
  );
  return f;
}

async function draco(f: ModelSketch): Promise<Uint8Array> {
  const draco3d = createRequire(import.meta.url)('draco3dgltf') as {
    createEncoderModule(o: object): Promise<unknown>;
    createDecoderModule(o: object): Promise<unknown>;
  };
  f.doc.createExtension(KHRDracoMeshCompression).setRequired(true);
  return new NodeIO()
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({
      'draco3d.encoder': await draco3d.createEncoderModule({}),
      'draco3d.decoder': await draco3d.createDecoderModule({}),
    })
    .writeBinary(f.doc);
}

/** Peak resident size of `pid` so far, MB (VmHWM), or 0 once it has gone. */
async function peakMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : 0;
}

async function measure(name: string, bytes: Uint8Array, part: ReturnType<typeof demoPart>): Promise<void> {
  let best = Infinity;
  let peak = 0;
  let outcome = '';
  for (let r = 0; r < runs; r++) {
    let pid = 0;
    let high = 0;
    const poll = setInterval(() => {
      if (pid) void peakMb(pid).then((mb) => (high = Math.max(high, mb)));
    }, 25);
    const t0 = performance.now();
    try {
      const p = await prepareModelIsolated(
        modelInputFromBytes(`${name}.glb`, bytes),
        part,
        { limits },
        { onChild: (p) => (pid = p) },
      );
      outcome = `${p.originalTriangles} -> ${p.triangles} triangles${p.simplification ? ` (error ${p.simplification.error}${p.simplification.sloppy ? ', sloppy' : ''})` : ''}, ${(p.preparedBytes / 1024).toFixed(0)} KiB`;
    } catch (err) {
      outcome = `refused: ${(err as Error).message.slice(0, 140)}`;
    }
    best = Math.min(best, performance.now() - t0);
    clearInterval(poll);
    peak = Math.max(peak, high);
  }
  console.log(
    `| ${name} | ${(bytes.byteLength / 1024 / 1024).toFixed(2)} MiB | ${(best / 1000).toFixed(2)} s | ${peak.toFixed(0)} MB | ${outcome} |`,
  );
}

const pcCase = demoPart('caseAeroGlass');
const gpu = demoPart('gpuTriple3Fan');
console.log('| model | file | time (best) | peak RSS (child) | outcome |\n|---|---|---|---|---|');
await measure('case-211k', await (await case211k()).glb(), pcCase);
await measure('case-211k-draco', await draco(await case211k()), pcCase);
await measure('gpu-4k-texture', await (await gpu4k()).glb(), gpu);
await measure('gpu-4k-texture-draco', await draco(await gpu4k()), gpu);
