/**
 * prepareModel and validateModel on real GLBs made by test/helpers/gltf-fixtures.ts, with the
 * real Khronos validator, glTF-Transform, meshoptimizer and sharp: what is refused (and how it
 * says so), what preparation keeps (anchors, RGB material names), budgets, fitting, textures,
 * and that the prepared bytes are deterministic and valid.
 */
import { getBounds, NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { Box3, Vector3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { describe, expect, it } from 'vitest';
import { demoPart } from '../../src/catalog/demo-catalog.js';
import { isRgbMaterial, MODEL_CATEGORIES } from '../../src/model/part-models.js';
import { ModelTooLargeError } from '../../src/part-models/model-errors.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { modelIO } from '../../src/part-models/model-io.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { validateModel } from '../../src/part-models/validate-model.js';
import {
  caseWithAnchors,
  denseBox,
  distinctiveGpu,
  FixtureDoc,
  gltfWithExternalBuffer,
  notGltf,
  rgbFan,
  texturedGpu,
} from '../helpers/gltf-fixtures.js';
import { rejection } from '../helpers/model-rejection.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const limits = TEST_MODEL_LIMITS;

// demo parts of each kind, sized as the fixtures' defaults
const gpu = demoPart('gpuTriple3Fan'); // 305 mm, 3 slots
const pcCase = demoPart('caseAeroGlass'); // 230 x 485 x 470 mm
const fan = demoPart('fan120Rgb3');
const cpu = demoPart('cpuR9');

async function glbInput(name: string, f: FixtureDoc) {
  return modelInputFromBytes(name, await f.glb());
}

describe('prepareModel', () => {
  it('prepares a GPU: same bytes and sha256 twice, meshopt-compressed, valid, readable back', async () => {
    const input = await glbInput('gpu.glb', distinctiveGpu(305, 3));
    const a = await prepareModel(input, gpu, { limits });
    const b = await prepareModel(input, gpu, { limits });
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(b.sha256).toBe(a.sha256);
    expect(Buffer.from(b.glb).equals(Buffer.from(a.glb))).toBe(true);
    expect(a.triangles).toBe(24);
    expect(a.originalTriangles).toBe(24);
    expect(a.preparedBytes).toBe(a.glb.byteLength);
    expect(a.originalBytes).toBe(input.bytes.byteLength);
    expect(a.scale).toBe(1);
    expect(a.expectedMm).toEqual([126, 3 * 20.32, 305]);
    expect(a.sizeMm[2]).toBeCloseTo(305, 0);

    const report = await validateModel(modelInputFromBytes('prepared.glb', a.glb), limits);
    expect(report.errors).toBe(0);
    expect(report.meshoptDecoded).toBe(true);
    expect(report.triangles).toBe(24);

    const doc = await (await modelIO()).readBinary(a.glb);
    const used = doc
      .getRoot()
      .listExtensionsUsed()
      .map((e) => e.extensionName);
    expect(used).toContain('EXT_meshopt_compression');
    expect(used).toContain('KHR_mesh_quantization');
    expect(
      doc
        .getRoot()
        .listMaterials()
        .map((m) => m.getName())
        .sort(),
    ).toEqual(['shroud', 'stripe']);
    const box = getBounds(doc.getRoot().listScenes()[0]!);
    expect((box.max[2] - box.min[2]) * 1000).toBeCloseTo(305, 0);
  });

  it('keeps the case anchors (empty nodes) where they were, and joins the panels of one material', async () => {
    const f = caseWithAnchors(230, 485, 470);
    const before = Object.fromEntries(
      f.root
        .listChildren()
        .filter((n) => n.getName().startsWith('anchor_'))
        .map((n) => [n.getName(), n.getTranslation()]),
    );
    const p = await prepareModel(await glbInput('case.glb', f), pcCase, { limits });
    expect(p.anchors.sort()).toEqual(Object.keys(before).sort());
    expect(p.anchors).toHaveLength(5);

    const doc = await (await modelIO()).readBinary(p.glb);
    for (const node of doc
      .getRoot()
      .listNodes()
      .filter((n) => n.getName().startsWith('anchor_'))) {
      const want = before[node.getName()]!;
      node.getTranslation().forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 5));
    }
    // five steel panels became one mesh; the glass window stays its own
    expect(doc.getRoot().listMeshes()).toHaveLength(2);
    expect(p.nodes).toBe(8); // root, steel, window, 5 anchors
  });

  it("loads in three.js's GLTFLoader with MeshoptDecoder, at its size, anchors in place", async () => {
    const p = await prepareModel(await glbInput('case.glb', caseWithAnchors(230, 485, 470)), pcCase, { limits });
    const gltf = await new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).parseAsync(p.glb.slice().buffer, '');
    const size = new Box3().setFromObject(gltf.scene).getSize(new Vector3());
    expect([size.x, size.y, size.z].map((v) => v * 1000)).toEqual([
      expect.closeTo(230, 0),
      expect.closeTo(485, 0),
      expect.closeTo(470, 0),
    ]);
    expect(gltf.scene.getObjectByName('anchor_psu_bay')?.position.toArray()).toEqual([
      0,
      0.05,
      expect.closeTo(-0.47 / 2 + 0.1, 6),
    ]);
  });

  it('keeps RGB material names, and the rgb extras tag', async () => {
    const byName = await prepareModel(await glbInput('fan.glb', rgbFan(120, 'name')), fan, { limits });
    const byExtras = await prepareModel(await glbInput('fan.glb', rgbFan(120, 'extras')), fan, { limits });
    const io = await modelIO();
    const named = (await io.readBinary(byName.glb)).getRoot().listMaterials();
    expect(named.map((m) => m.getName())).toContain('RGB_ring');
    expect(named.filter((m) => isRgbMaterial(m.getName(), m.getExtras()))).toHaveLength(1);
    const tagged = (await io.readBinary(byExtras.glb)).getRoot().listMaterials();
    expect(tagged.filter((m) => isRgbMaterial(m.getName(), m.getExtras())).map((m) => m.getName())).toEqual(['ring']);
  });

  it('refuses bytes that are not glTF with the validator message', async () => {
    const err = await rejection(prepareModel(modelInputFromBytes('cube.glb', notGltf()), gpu, { limits }));
    expect(err.status).toBe(422);
    expect(err.code).toBe('invalid_model');
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(/cube\.glb: not valid glTF 2\.0 .*Invalid GLB magic/);
    expect(err.details?.[0]?.message).toMatch(/^GLB_INVALID_MAGIC/);
  });

  it('refuses invalid glTF JSON with the first errors and their JSON pointers', async () => {
    const { json, files } = await gltfWithExternalBuffer();
    const broken = JSON.parse(json) as { accessors: { count: number }[] };
    broken.accessors[0]!.count = 10_000; // past the end of its buffer view
    const err = await rejection(
      prepareModel(modelInputFromBytes('broken.gltf', new TextEncoder().encode(JSON.stringify(broken)), files), gpu, {
        limits,
      }),
    );
    expect(err.message).toMatch(/not valid glTF 2\.0 \(\d+ errors?; the first: .+\(\/accessors\/0.*\)/);
    expect(err.details!.length).toBeGreaterThan(0);
    expect(err.details!.length).toBeLessThanOrEqual(5);
    expect(err.details!.every((d) => typeof d.pointer === 'string' && d.pointer.startsWith('/'))).toBe(true);
  });

  it('prepares a .gltf that comes with its .bin', async () => {
    const { json, files } = await gltfWithExternalBuffer([0.126, 0.06, 0.305]);
    const p = await prepareModel(modelInputFromBytes('part.gltf', new TextEncoder().encode(json), files), gpu, {
      limits,
    });
    expect(p.triangles).toBe(12);
  });

  it('prepares a .gltf with data: URIs and two buffers into one GLB, deterministically', async () => {
    const f = await texturedGpu(64, 305, 3);
    const second = f.doc.createBuffer('second');
    const stripe = f.box(
      { size: [0.01, 0.02, 0.2], at: [-0.06, 0, 0], color: '#00ff00', material: 'stripe' },
      'stripe',
    );
    for (const a of stripe.getMesh()!.listPrimitives()[0]!.listAttributes()) a.setBuffer(second);
    const { json, resources } = await new NodeIO().writeJSON(f.doc, { basename: 'part' });
    expect(json.buffers).toHaveLength(2);
    for (const b of json.buffers!)
      b.uri = `data:application/octet-stream;base64,${Buffer.from(resources[b.uri!]!).toString('base64')}`;
    for (const im of json.images!)
      im.uri = `data:image/png;base64,${Buffer.from(resources[im.uri!]!).toString('base64')}`;
    const input = modelInputFromBytes('embedded.gltf', new TextEncoder().encode(JSON.stringify(json)));
    expect(input.resources).toEqual({});
    const a = await prepareModel(input, gpu, { limits });
    const b = await prepareModel(input, gpu, { limits });
    expect(b.sha256).toBe(a.sha256);
    expect([a.triangles, a.textures]).toEqual([24, 1]);
    const back = (await (await modelIO()).readBinary(a.glb)).getRoot();
    expect(
      back
        .listMaterials()
        .map((m) => m.getName())
        .sort(),
    ).toEqual(['shroud', 'stripe']);
  });

  it('refuses a model 10x too large, with measured and expected sizes, and fits it with fit', async () => {
    const f = distinctiveGpu(305, 3);
    f.root.setScale([10, 10, 10]); // authored in centimetres as if they were metres
    const input = await glbInput('gpu-cm.glb', f);
    const err = await rejection(prepareModel(input, gpu, { limits }));
    expect(err.message).toMatch(/measures 1360 x 609\.6 x 3050 mm .* GPU .* is about 126 x 61 x 305 mm/);
    expect(err.message).toMatch(/off by more than 2x on x, y, z/);
    expect(err.message).toMatch(/use --fit to scale it/);
    expect(err.details?.[2]).toMatchObject({ axis: 'z', measuredMm: 3050, expectedMm: 305 });

    const p = await prepareModel(input, gpu, { limits, fit: true });
    // the stripe sticks out 10 mm past the 126 mm card, so x decides the scale
    expect(p.scale).toBeCloseTo(126 / 1360, 4);
    expect(p.scale).toBeGreaterThan(0.09);
    expect(p.scale).toBeLessThan(0.1);
    p.sizeMm.forEach((v, i) => expect(v).toBeLessThanOrEqual(p.expectedMm[i]! + 0.5));
    expect(p.sizeMm[0]).toBeCloseTo(126, 0);
    expect(p.warnings.join('\n')).toMatch(/scaled by 0\.09\d* to fit/);
  });

  it('simplifies a model over the triangle budget down to it', async () => {
    const input = await glbInput('dense.glb', denseBox(200_000, [0.126, 0.06, 0.305]));
    const p = await prepareModel(input, gpu, { limits: { ...limits, modelMaxTriangles: 20_000 } });
    expect(p.originalTriangles).toBeGreaterThan(190_000);
    expect(p.triangles).toBeLessThanOrEqual(20_000);
    expect(p.triangles).toBeGreaterThan(1_000);
    expect(p.warnings.join('\n')).toMatch(/simplified from \d+ to \d+ triangles \(budget 20000\)/);
    const report = await validateModel(modelInputFromBytes('prepared.glb', p.glb), limits);
    expect(report.triangles).toBe(p.triangles);
  });

  it('fits a model the simplifier cannot collapse within its bounds by sloppy simplification (refusal: simplify-budget.test.ts)', async () => {
    // 25 separate slabs: every face is a border the simplifier cannot collapse within its error bound
    const f = new FixtureDoc('slabs');
    for (let i = 0; i < 25; i++) f.box({ size: [0.126, 0.06, 0.01], at: [0, 0, -0.15 + i * 0.0125] }, `slab${i}`);
    const p = await prepareModel(await glbInput('slabs.glb', f), gpu, {
      limits: { ...limits, modelMaxTriangles: 100 },
    });
    expect(p.triangles).toBeLessThanOrEqual(100);
    expect(p.simplification).toMatchObject({ before: 300, sloppy: true });
  });

  it('refuses a category that takes no model, naming those that do', async () => {
    const err = await rejection(prepareModel(await glbInput('cpu.glb', distinctiveGpu()), cpu, { limits }));
    expect(err.message).toContain(`is a CPU: models are taken for ${MODEL_CATEGORIES.join(', ')} only`);
  });

  it('refuses a scene without triangles', async () => {
    const f = new FixtureDoc('empties');
    f.empty('anchor_gpu_slot', [0, 0, 0]);
    // no geometry, so no buffer (glTF-Transform would write an empty one, which is invalid)
    for (const b of f.doc.getRoot().listBuffers()) b.dispose();
    const err = await rejection(prepareModel(await glbInput('empty.glb', f), gpu, { limits }));
    expect(err.message).toMatch(/draws no triangles/);
  });

  it('refuses over the byte limit (413) and over the node limit', async () => {
    const input = await glbInput('case.glb', caseWithAnchors(230, 485, 470));
    const tooLarge = await prepareModel(input, pcCase, { limits: { ...limits, modelMaxBytes: 2048 } }).catch(
      (e: unknown) => e,
    );
    expect(tooLarge).toBeInstanceOf(ModelTooLargeError);
    expect((tooLarge as ModelTooLargeError).status).toBe(413);
    expect((tooLarge as ModelTooLargeError).code).toBe('model_too_large');
    expect((tooLarge as ModelTooLargeError).message).toMatch(/RENDER_FARM_MODEL_MAX_BYTES/);

    const err = await rejection(prepareModel(input, pcCase, { limits: { ...limits, modelMaxNodes: 5 } }));
    expect(err.message).toMatch(/case\.glb: 12 nodes, over the limit of 5/);
  });

  it('resizes a 4096 px texture to 2048 and re-encodes it as WebP, deterministically', async () => {
    const input = await glbInput('textured.glb', await texturedGpu(4096, 305, 3));
    const report = await validateModel(input, limits);
    expect(report.textures).toEqual([{ name: 'shroud_albedo', mimeType: 'image/png', width: 4096, height: 4096 }]);
    expect(report.oversizeTextures).toBe(1);

    const p = await prepareModel(input, gpu, { limits });
    expect(p.textures).toBe(1);
    const doc = await (await modelIO()).readBinary(p.glb);
    const [texture] = doc.getRoot().listTextures();
    expect(texture!.getMimeType()).toBe('image/webp');
    const meta = await sharp(texture!.getImage()!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 2048, 2048]);
    expect(
      doc
        .getRoot()
        .listExtensionsUsed()
        .map((e) => e.extensionName),
    ).toContain('EXT_texture_webp');
    expect((await validateModel(modelInputFromBytes('prepared.glb', p.glb), limits)).errors).toBe(0);

    const again = await prepareModel(input, gpu, { limits });
    expect(again.sha256).toBe(p.sha256);
  }, 60_000);

  it('refuses a texture more than 4x the limit a side', async () => {
    const input = await glbInput('huge.glb', await texturedGpu(1024, 305, 3));
    const err = await rejection(validateModel(input, { ...limits, modelMaxTextureSize: 128 }));
    expect(err.message).toMatch(
      /image "shroud_albedo" is 1024x1024 px, over 512 px a side: resize it to at most 128 px/,
    );
  });
});
