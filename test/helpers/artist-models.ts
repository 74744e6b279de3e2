/**
 * Files as artists' tools write them, made here from the fixtures of gltf-fixtures.ts (never
 * downloaded): Draco geometry (draco3dgltf's encoder, as Blender and Sketchfab write it), meshopt
 * and quantized (gltfpack-style), spec-gloss materials (older exporters), a KTX2/Basis texture,
 * and a skin as COLLADA2GLTF wrote it (weights not summing to 1, a byteStride on the inverse bind
 * matrices). Each returns GLB bytes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger, NodeIO, type Document } from '@gltf-transform/core';
import {
  ALL_EXTENSIONS,
  EXTMeshoptCompression,
  KHRDracoMeshCompression,
  KHRMaterialsPBRSpecularGlossiness,
  KHRTextureBasisu,
} from '@gltf-transform/extensions';
import { quantize } from '@gltf-transform/functions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import type { FixtureDoc } from './gltf-fixtures.js';

// quantize() reports its pruning on stdout otherwise
const quiet = new Logger(Logger.Verbosity.WARN);
const here = path.dirname(fileURLToPath(import.meta.url));

/** draco3dgltf ships no types: the two factories used here. */
interface Draco3d {
  createEncoderModule(opts?: object): Promise<unknown>;
  createDecoderModule(opts?: object): Promise<unknown>;
}
const draco3d = createRequire(import.meta.url)('draco3dgltf') as Draco3d;

async function io(): Promise<NodeIO> {
  await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
  return new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
    'draco3d.encoder': await draco3d.createEncoderModule({}),
    'draco3d.decoder': await draco3d.createDecoderModule({}),
    'meshopt.encoder': MeshoptEncoder,
    'meshopt.decoder': MeshoptDecoder,
  });
}

/** The fixture with every mesh Draco-compressed (KHR_draco_mesh_compression, required). */
export async function dracoGlb(f: FixtureDoc): Promise<Uint8Array> {
  f.doc
    .createExtension(KHRDracoMeshCompression)
    .setRequired(true)
    .setEncoderOptions({ method: KHRDracoMeshCompression.EncoderMethod.EDGEBREAKER });
  return (await io()).writeBinary(f.doc);
}

/** The fixture quantized and meshopt-compressed, as gltfpack -cc writes it. */
export async function meshoptGlb(f: FixtureDoc): Promise<Uint8Array> {
  await f.doc.setLogger(quiet).transform(quantize());
  f.doc
    .createExtension(EXTMeshoptCompression)
    .setRequired(true)
    .setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.QUANTIZE });
  return (await io()).writeBinary(f.doc);
}

/** The fixture quantized (KHR_mesh_quantization: 16-bit positions, 8-bit normals), uncompressed. */
export async function quantizedGlb(f: FixtureDoc): Promise<Uint8Array> {
  await f.doc.setLogger(quiet).transform(quantize());
  return (await io()).writeBinary(f.doc);
}

/**
 * The fixture's materials as a spec-gloss exporter writes them: the colour in
 * KHR_materials_pbrSpecularGlossiness's diffuse, the core base colour left white (what a viewer
 * without the extension draws).
 */
export async function specGlossGlb(f: FixtureDoc): Promise<Uint8Array> {
  const ext = f.doc.createExtension(KHRMaterialsPBRSpecularGlossiness);
  for (const m of f.doc.getRoot().listMaterials()) {
    const sg = ext
      .createPBRSpecularGlossiness()
      .setDiffuseFactor(m.getBaseColorFactor())
      .setSpecularFactor([0.2, 0.2, 0.2])
      .setGlossinessFactor(0.4);
    m.setExtension('KHR_materials_pbrSpecularGlossiness', sg);
    m.setBaseColorFactor([1, 1, 1, 1]);
  }
  return (await io()).writeBinary(f.doc);
}

/**
 * A 40 x 40 px KTX2 texture (Basis ETC1S or UASTC) from glTF-Transform's test inputs
 * (test/fixtures/ktx2/README.md: MIT, attribution there).
 */
export function ktx2Texture(kind: 'etc1s' | 'uastc'): Uint8Array {
  return new Uint8Array(readFileSync(path.join(here, '..', 'fixtures', 'ktx2', `2d_${kind}.ktx2`)));
}

/** A textured fixture (texturedGpu) whose image is replaced by a KTX2 (KHR_texture_basisu, required). */
export async function ktx2Glb(f: FixtureDoc, kind: 'etc1s' | 'uastc' = 'etc1s'): Promise<Uint8Array> {
  f.doc.createExtension(KHRTextureBasisu).setRequired(true);
  for (const t of f.doc.getRoot().listTextures()) t.setImage(ktx2Texture(kind)).setMimeType('image/ktx2');
  return (await io()).writeBinary(f.doc);
}

/** A GLB's JSON edited by `edit` (same binary chunk), for what glTF-Transform would never write. */
export function editGlbJson(glb: Uint8Array, edit: (json: Record<string, any>) => void): Uint8Array {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  edit(json);
  const rest = glb.subarray(20 + jsonLength);
  let text = new TextEncoder().encode(JSON.stringify(json));
  const pad = (4 - (text.byteLength % 4)) % 4;
  text = new Uint8Array([...text, ...new Array(pad).fill(0x20)]);
  const out = new Uint8Array(20 + text.byteLength + rest.byteLength);
  const o = new DataView(out.buffer);
  out.set(glb.subarray(0, 20));
  o.setUint32(8, out.byteLength, true);
  o.setUint32(12, text.byteLength, true);
  out.set(text, 20);
  out.set(rest, 20 + text.byteLength);
  return out;
}

/**
 * The fixture's first mesh skinned to one joint, as older COLLADA2GLTF exports were: every
 * vertex's weights sum to `weightSum` (not 1), and with `ibmStride` the inverse bind matrices'
 * buffer view carries a byteStride (both validator errors that three.js draws through).
 */
export async function skinnedGlb(f: FixtureDoc, opts: { weightSum: number; ibmStride: boolean }): Promise<Uint8Array> {
  const doc: Document = f.doc;
  const buffer = doc.getRoot().listBuffers()[0]!;
  const joint = doc.createNode('joint');
  f.root.addChild(joint);
  const ibm = doc
    .createAccessor('ibm')
    .setType('MAT4')
    .setArray(new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]))
    .setBuffer(buffer);
  const skin = doc.createSkin('skin').addJoint(joint).setInverseBindMatrices(ibm);
  const node = f.root.listChildren().find((n) => n.getMesh())!;
  node.setSkin(skin);
  for (const prim of node.getMesh()!.listPrimitives()) {
    const n = prim.getAttribute('POSITION')!.getCount();
    const joints = new Uint8Array(n * 4);
    const weights = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) weights[i * 4] = opts.weightSum;
    prim.setAttribute('JOINTS_0', doc.createAccessor().setType('VEC4').setArray(joints).setBuffer(buffer));
    prim.setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(weights).setBuffer(buffer));
  }
  const glb = await (await io()).writeBinary(doc);
  if (!opts.ibmStride) return glb;
  return editGlbJson(glb, (json) => {
    // a view of its own over the matrices' bytes, with the stride the old exporter wrote
    const acc = json.accessors[json.skins[0].inverseBindMatrices];
    const view = json.bufferViews[acc.bufferView];
    json.bufferViews.push({
      buffer: view.buffer,
      byteOffset: (view.byteOffset ?? 0) + (acc.byteOffset ?? 0),
      byteLength: acc.count * 64,
      byteStride: 64,
    });
    acc.bufferView = json.bufferViews.length - 1;
    delete acc.byteOffset;
  });
}
