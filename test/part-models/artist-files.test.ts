/**
 * What artists' tools export, through the real validateModel / prepareModel (Khronos validator,
 * glTF-Transform, draco3dgltf, three.js's Basis transcoder, meshoptimizer, sharp) on files made
 * here (test/helpers/artist-models.ts): Draco geometry, KTX2/Basis textures and spec-gloss
 * materials are decoded at preparation and never stored; meshopt and quantized input keep
 * working; a file that cannot be read is refused in words naming the cause and the fix, never a
 * JavaScript error's text; validator errors three.js draws through are repaired by a named list
 * of codes, and every other error still refuses.
 */
import sharp from 'sharp';
import { Color, Mesh, type MeshStandardMaterial } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { describe, expect, it } from 'vitest';
import { demoPart } from '../../src/catalog/demo-catalog.js';
import { ModelRejectedError } from '../../src/part-models/model-errors.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { modelIO } from '../../src/part-models/model-io.js';
import { precheckModel } from '../../src/part-models/model-precheck.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import {
  dracoGlb,
  editGlbJson,
  ktx2Glb,
  ktx2Texture,
  meshoptGlb,
  quantizedGlb,
  skinnedGlb,
  specGlossGlb,
} from '../helpers/artist-models.js';
import { distinctiveGpu, texturedGpu } from '../helpers/gltf-fixtures.js';
import { rejection } from '../helpers/model-rejection.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const limits = TEST_MODEL_LIMITS;
const gpu = demoPart('gpuTriple3Fan'); // 305 mm, 3 slots
const card = () => distinctiveGpu(305, 3);

/** JavaScript's own words, which must never reach an artist. */
const JS_ERROR = /Cannot read properties|undefined|is not a function|TypeError|RangeError|ReferenceError/;

async function extensionsOf(glb: Uint8Array): Promise<string[]> {
  const doc = await (await modelIO()).readBinary(glb);
  return doc
    .getRoot()
    .listExtensionsUsed()
    .map((e) => e.extensionName);
}

/** The prepared GLB as the stage's GLTFLoader reads it: its meshes' materials. */
async function threeMaterials(glb: Uint8Array): Promise<MeshStandardMaterial[]> {
  await MeshoptDecoder.ready;
  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
  const buf = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  const gltf = await loader.parseAsync(buf, '');
  const out: MeshStandardMaterial[] = [];
  gltf.scene.traverse((o) => {
    if (o instanceof Mesh) out.push(o.material as MeshStandardMaterial);
  });
  return out;
}

describe('files artists export', () => {
  it('a Draco GLB is decoded at preparation: accepted, stored without Draco, same triangles and size as the plain file', async () => {
    const glb = await dracoGlb(card());
    expect(await extensionsOf(glb)).toContain('KHR_draco_mesh_compression');
    const p = await prepareModel(modelInputFromBytes('draco.glb', glb), gpu, { limits });
    expect(p.triangles).toBe(24);
    expect(p.sizeMm[2]).toBeCloseTo(305, 0);
    const used = await extensionsOf(p.glb);
    expect(used).not.toContain('KHR_draco_mesh_compression');
    expect(used).toContain('EXT_meshopt_compression');
    expect(p.warnings.join('\n')).not.toMatch(/draco/i);
  }, 60_000);

  it('meshopt and quantized input keep working, and prepare to the same bytes as each other', async () => {
    const meshopt = await prepareModel(modelInputFromBytes('packed.glb', await meshoptGlb(card())), gpu, { limits });
    const quantized = await prepareModel(modelInputFromBytes('quantized.glb', await quantizedGlb(card())), gpu, {
      limits,
    });
    expect(meshopt.triangles).toBe(24);
    expect(quantized.sha256).toBe(meshopt.sha256);
  }, 60_000);

  it('spec-gloss materials become metal-rough with their diffuse colour: three.js draws them magenta and yellow, not white', async () => {
    const p = await prepareModel(modelInputFromBytes('specgloss.glb', await specGlossGlb(card())), gpu, { limits });
    expect(await extensionsOf(p.glb)).not.toContain('KHR_materials_pbrSpecularGlossiness');
    expect(p.warnings.join('\n')).toMatch(/2 spec-gloss materials .* converted to metal-rough/);
    const colours = (await threeMaterials(p.glb)).map((m) => m.color.getHexString()).sort();
    // the fixture's sRGB #e0109a and #ffe000, as three.js reads them back
    expect(colours).toEqual([new Color('#e0109a').getHexString(), new Color('#ffe000').getHexString()].sort());
    expect(colours).not.toContain('ffffff');
  }, 60_000);

  for (const kind of ['etc1s', 'uastc'] as const) {
    it(`a KTX2/Basis (${kind.toUpperCase()}) texture is transcoded: stored as WebP, never KTX2, the same pixels`, async () => {
      const glb = await ktx2Glb(await texturedGpu(64, 305, 3), kind);
      const p = await prepareModel(modelInputFromBytes(`ktx2-${kind}.glb`, glb), gpu, { limits });
      expect(p.textures).toBe(1);
      const used = await extensionsOf(p.glb);
      expect(used).not.toContain('KHR_texture_basisu');
      expect(used).toContain('EXT_texture_webp');
      const doc = await (await modelIO()).readBinary(p.glb);
      const tex = doc.getRoot().listTextures()[0]!;
      expect(tex.getMimeType()).toBe('image/webp');
      const stored = await sharp(tex.getImage()!).raw().toBuffer({ resolveWithObject: true });
      expect([stored.info.width, stored.info.height]).toEqual([40, 40]);
      // the test image is not one flat colour: a transcoding to black or noise would show
      const { channels } = await sharp(tex.getImage()!).stats();
      expect(channels[0]!.mean).toBeGreaterThan(20);
      expect(channels.slice(0, 3).some((c) => c.stdev > 5)).toBe(true);
    }, 60_000);
  }

  it('a KTX2 in a GPU format (not Basis) is refused naming KTX2/Basis and the fix, not a JavaScript error', async () => {
    const raw = ktx2Texture('etc1s');
    const bc7 = new Uint8Array(raw);
    new DataView(bc7.buffer).setUint32(12, 145, true); // vkFormat BC7_SRGB_BLOCK
    const f = await texturedGpu(64, 305, 3);
    const glb = await ktx2Glb(f);
    const doc = await (await modelIO()).readBinary(glb);
    doc.getRoot().listTextures()[0]!.setImage(bc7);
    const patched = await (await modelIO()).writeBinary(doc);
    const err = await rejection(prepareModel(modelInputFromBytes('bc7.glb', patched), gpu, { limits }));
    expect(err.message).toMatch(
      /KTX2 the farm cannot read \(GPU format vkFormat 145, not Basis\).*ETC1S or UASTC.*PNG, JPEG or WebP/,
    );
    expect(err.message).not.toMatch(JS_ERROR);
  }, 60_000);

  it('damaged KTX2/Basis data is refused naming the image and the fix, not a JavaScript error', async () => {
    const ktx = new Uint8Array(ktx2Texture('uastc'));
    const view = new DataView(ktx.buffer);
    // level 0's bytes (from the level index) scrambled; the header and index stay plausible
    const at = Number(view.getBigUint64(80, true));
    const length = Number(view.getBigUint64(88, true));
    for (let i = at; i < at + length; i++) ktx[i] = (i * 151) & 255;
    const doc = await (await modelIO()).readBinary(await ktx2Glb(await texturedGpu(64, 305, 3), 'uastc'));
    doc.getRoot().listTextures()[0]!.setImage(ktx);
    const glb = await (await modelIO()).writeBinary(doc);
    const err = await prepareModel(modelInputFromBytes('scrambled.glb', glb), gpu, { limits }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    // UASTC blocks have no checksum: scrambled ones may transcode to noise; if refused, in these words
    if (err) {
      expect(err).toBeInstanceOf(ModelRejectedError);
      expect(err.message).toMatch(
        /scrambled\.glb: image "shroud_albedo" \(KTX2\/Basis\) does not transcode: its data is damaged/,
      );
      expect(err.message).not.toMatch(JS_ERROR);
    }
    const etc = new Uint8Array(ktx2Texture('etc1s'));
    // ETC1S's global codebooks (after the level data) truncated to zeros: the transcoder cannot start
    etc.fill(0, 300);
    const doc2 = await (await modelIO()).readBinary(await ktx2Glb(await texturedGpu(64, 305, 3)));
    doc2.getRoot().listTextures()[0]!.setImage(etc);
    const err2 = await rejection(
      prepareModel(modelInputFromBytes('zeroed.glb', await (await modelIO()).writeBinary(doc2)), gpu, { limits }),
    );
    expect(err2.message).toMatch(/zeroed\.glb: image "shroud_albedo" .*KTX2/);
    expect(err2.message).not.toMatch(JS_ERROR);
  }, 60_000);

  it('damaged Draco data is refused naming the damage and the fix, not a JavaScript error', async () => {
    const glb = await dracoGlb(card());
    // the Draco streams' bytes overwritten with zeros (the JSON still promises them)
    const damaged = new Uint8Array(glb);
    const view = new DataView(damaged.buffer);
    const binAt = 20 + view.getUint32(12, true);
    damaged.fill(0, binAt + 8 + 16, damaged.byteLength);
    const err = await rejection(prepareModel(modelInputFromBytes('damaged-draco.glb', damaged), gpu, { limits }));
    expect(err.message).toMatch(/damaged-draco\.glb: .*export it again/);
    expect(err.message).not.toMatch(JS_ERROR);
  }, 60_000);

  it('the structural pre-checks read Draco primitives (accessors without views) and KTX2 headers: a missing Draco view and a truncated KTX2 level are refused unread', async () => {
    const draco = await dracoGlb(card());
    // a valid Draco file passes the pre-checks (its accessors have no bufferView by design)
    expect(() => precheckModel(modelInputFromBytes('draco.glb', draco), limits)).not.toThrow();
    const lost = editGlbJson(draco, (json) => {
      json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.bufferView = 99;
    });
    expect(() => precheckModel(modelInputFromBytes('lost.glb', lost), limits)).toThrow(
      /Draco data names buffer view 99, which is not there/,
    );

    const ktx = await ktx2Glb(await texturedGpu(64, 305, 3));
    expect(() => precheckModel(modelInputFromBytes('ktx2.glb', ktx), limits)).not.toThrow();
    const doc = await (await modelIO()).readBinary(ktx);
    const cut = ktx2Texture('etc1s');
    doc
      .getRoot()
      .listTextures()[0]!
      .setImage(cut.subarray(0, cut.byteLength - 200));
    const truncated = await (await modelIO()).writeBinary(doc);
    expect(() => precheckModel(modelInputFromBytes('cut.glb', truncated), limits)).toThrow(
      /image 0 \(KTX2\) level 0 .* reaches past the end of the file/,
    );
  }, 60_000);

  it("a required extension nobody reads is refused naming it, not with the reader's words", async () => {
    const glb = editGlbJson(await card().glb(), (json) => {
      json.extensionsUsed = ['VENDOR_magic_compression'];
      json.extensionsRequired = ['VENDOR_magic_compression'];
    });
    const err = await rejection(prepareModel(modelInputFromBytes('vendor.glb', glb), gpu, { limits }));
    expect(err.message).toMatch(/VENDOR_magic_compression/);
    expect(err.message).not.toMatch(JS_ERROR);
  }, 60_000);
});

describe('lenient validation', () => {
  it('skin weights not summing to 1 and a byteStride on inverse bind matrices are repaired and reported as warnings', async () => {
    const glb = await skinnedGlb(card(), { weightSum: 0.8, ibmStride: true });
    const p = await prepareModel(modelInputFromBytes('collada2gltf.glb', glb), gpu, { limits });
    expect(p.triangles).toBe(24);
    const warnings = p.warnings.join('\n');
    expect(warnings).toMatch(
      /repaired SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE: byteStride removed from the inverse bind matrices/,
    );
    expect(warnings).toMatch(
      /repaired ACCESSOR_WEIGHTS_NON_NORMALIZED x\d+: skin weights that did not sum to 1 normalised/,
    );
    // the stored weights sum to 1
    const doc = await (await modelIO()).readBinary(p.glb);
    for (const prim of doc
      .getRoot()
      .listMeshes()
      .flatMap((m) => m.listPrimitives())) {
      const w = prim.getAttribute('WEIGHTS_0');
      if (!w) continue;
      const el = [0, 0, 0, 0];
      for (let i = 0; i < w.getCount(); i++) expect(w.getElement(i, el).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    }
  }, 60_000);

  it('an error outside the named list still refuses, even beside a repairable one (all-zero weights cannot be normalised)', async () => {
    const zero = await skinnedGlb(card(), { weightSum: 0, ibmStride: true });
    const err = await rejection(prepareModel(modelInputFromBytes('zero-weights.glb', zero), gpu, { limits }));
    expect(err.message).toMatch(/zero-weights\.glb: not valid glTF 2\.0/);
    const other = editGlbJson(await skinnedGlb(card(), { weightSum: 0.8, ibmStride: false }), (json) => {
      json.accessors[json.skins[0].inverseBindMatrices].count = 2; // fewer matrices than joints... and more than the view holds
    });
    const err2 = await rejection(prepareModel(modelInputFromBytes('bad-ibm.glb', other), gpu, { limits }));
    expect(err2.message).toMatch(/bad-ibm\.glb: not valid glTF 2\.0/);
  }, 60_000);
});
