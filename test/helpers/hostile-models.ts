/**
 * Hostile model files, one per class a model upload must survive (the fuzz of
 * test/api/models-fuzz.test.ts and the prechecks of test/part-models/model-precheck.test.ts):
 * truncated files, lying headers, huge declared counts, decompression-bomb images, cycles, deep
 * and wide node graphs, NaN/Infinity positions, 10,000 materials, a JSON nesting bomb. Each is
 * made here from a valid GPU model (gltf-fixtures.ts) by editing its GLB's JSON or bytes.
 */
import { crc32 } from 'node:zlib';
import { distinctiveGpu } from './gltf-fixtures.js';

type Gltf = any;

/** The JSON and BIN chunk of a GLB (trusting its header: the inputs here are made by NodeIO). */
export function splitGlb(glb: Uint8Array): { json: Gltf; bin: Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json: Gltf = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binAt = 20 + jsonLength;
  const bin = glb.subarray(binAt + 8, binAt + 8 + view.getUint32(binAt, true));
  return { json, bin };
}

/** A GLB of `json` (spaces pad it) and `bin` (zeros pad it), lengths as the spec wants. */
export function joinGlb(jsonValue: Gltf, bin: Uint8Array | null, text?: string): Uint8Array {
  let jsonText = text ?? JSON.stringify(jsonValue);
  while (Buffer.byteLength(jsonText) % 4) jsonText += ' ';
  const jsonBytes = Buffer.from(jsonText);
  const binPadded = bin ? Buffer.concat([Buffer.from(bin), Buffer.alloc((4 - (bin.byteLength % 4)) % 4)]) : null;
  const total = 12 + 8 + jsonBytes.length + (binPadded ? 8 + binPadded.length : 0);
  const out = Buffer.alloc(total);
  out.writeUInt32LE(0x46546c67, 0);
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(total, 8);
  out.writeUInt32LE(jsonBytes.length, 12);
  out.writeUInt32LE(0x4e4f534a, 16);
  jsonBytes.copy(out, 20);
  if (binPadded) {
    out.writeUInt32LE(binPadded.length, 20 + jsonBytes.length);
    out.writeUInt32LE(0x004e4942, 24 + jsonBytes.length);
    binPadded.copy(out, 28 + jsonBytes.length);
  }
  return new Uint8Array(out);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A few hundred bytes of PNG whose header declares `width` x `height` RGBA pixels (a decompression bomb's header). */
export function bombPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  // a zlib stream of a few zero bytes: far short of the pixels declared
  const idat = Buffer.from([0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The valid GPU every hostile file starts from (300 mm, 2.5 slots: any catalog GPU's size within 2x). */
export async function baseGpuGlb(lengthMm = 300, slotWidth = 2.5): Promise<Uint8Array> {
  return distinctiveGpu(lengthMm, slotWidth).glb();
}

/** The base with `image` embedded as its shroud's texture. */
function withImage(base: Uint8Array, image: Buffer): Uint8Array {
  const { json, bin } = splitGlb(base);
  const offset = bin.byteLength + ((4 - (bin.byteLength % 4)) % 4);
  const joined = Buffer.concat([Buffer.from(bin), Buffer.alloc(offset - bin.byteLength), image]);
  json.buffers[0].byteLength = joined.length;
  json.bufferViews.push({ buffer: 0, byteOffset: offset, byteLength: image.length });
  json.images = [{ name: 'bomb', mimeType: 'image/png', bufferView: json.bufferViews.length - 1 }];
  json.textures = [{ source: 0 }];
  json.materials[0].pbrMetallicRoughness = {
    ...json.materials[0].pbrMetallicRoughness,
    baseColorTexture: { index: 0 },
  };
  return joinGlb(json, joined);
}

/** The base with its nodes replaced by `nodes` (the first mesh on the first), scene roots `roots`. */
function withNodes(base: Uint8Array, nodes: Gltf[], roots: number[]): Uint8Array {
  const { json, bin } = splitGlb(base);
  json.nodes = nodes;
  json.scenes = [{ nodes: roots }];
  json.scene = 0;
  return joinGlb(json, bin);
}

/** A chain of `depth` nested nodes, the mesh at its end. */
export function chainOfNodes(base: Uint8Array, depth: number): Uint8Array {
  const nodes = Array.from({ length: depth }, (_, i) => (i < depth - 1 ? { children: [i + 1] } : { mesh: 0 }));
  return withNodes(base, nodes, [0]);
}

/** One hostile file of each class: name -> bytes. */
export async function hostileModels(): Promise<Array<{ name: string; bytes: Uint8Array }>> {
  const base = await baseGpuGlb();
  const out: Array<{ name: string; bytes: Uint8Array }> = [];
  const add = (name: string, bytes: Uint8Array) => out.push({ name, bytes });
  const edit = (name: string, f: (json: Gltf, bin: Uint8Array) => Uint8Array | void) => {
    const { json, bin } = splitGlb(base);
    add(name, f(json, bin) ?? joinGlb(json, bin));
  };
  const header = (name: string, f: (view: DataView) => void) => {
    const copy = new Uint8Array(base);
    f(new DataView(copy.buffer));
    add(name, copy);
  };

  // truncated files
  add('truncated-header', base.subarray(0, 10));
  add('truncated-json', base.subarray(0, 40));
  add('truncated-half', base.subarray(0, Math.floor(base.byteLength / 2)));
  // lying headers
  header('header-length-too-long', (v) => v.setUint32(8, v.getUint32(8, true) * 4, true));
  header('header-length-too-short', (v) => v.setUint32(8, 24, true));
  header('json-chunk-past-end', (v) => v.setUint32(12, 0x7ffffff0, true));
  header('glb-version-1', (v) => v.setUint32(4, 1, true));
  edit('buffer-length-lies', (json) => {
    json.buffers[0].byteLength *= 1000;
  });
  // huge declared counts
  edit('accessor-count-2e9', (json) => {
    json.accessors[0].count = 2_000_000_000;
  });
  edit('implicit-accessor-1e9', (json) => {
    json.accessors.push({ componentType: 5126, type: 'VEC3', count: 1_000_000_000 });
  });
  // decompression-bomb images: tiny files that declare billions of pixels
  add('png-bomb-100000px', withImage(base, bombPng(100_000, 100_000)));
  add('png-bomb-65535x2', withImage(base, bombPng(65_535, 2)));
  // cycles and graphs that are not trees
  add('cycle', withNodes(base, [{ mesh: 0, children: [1] }, { children: [0] }], [0]));
  add('self-child', withNodes(base, [{ mesh: 0, children: [0] }], [0]));
  add('two-parents', withNodes(base, [{ children: [2] }, { children: [2] }, { mesh: 0 }], [0, 1]));
  add('child-out-of-range', withNodes(base, [{ mesh: 0, children: [99] }], [0]));
  // deep and wide graphs
  add('deep-20000', chainOfNodes(base, 20_000));
  add('deep-900', chainOfNodes(base, 900));
  add(
    'wide-20000',
    withNodes(
      base,
      [
        { mesh: 0, children: Array.from({ length: 20_000 }, (_, i) => i + 1) },
        ...Array.from({ length: 20_000 }, () => ({})),
      ],
      [0],
    ),
  );
  // NaN/Infinity positions: in the binary data, and in the JSON bounds (1e999 parses as Infinity)
  edit('nan-positions', (json, bin) => {
    const pos = json.meshes[0].primitives[0].attributes.POSITION;
    const view = json.bufferViews[json.accessors[pos].bufferView];
    const data = new Uint8Array(bin);
    const f = new Float32Array(
      data.buffer,
      data.byteOffset + (view.byteOffset ?? 0) + (json.accessors[pos].byteOffset ?? 0),
      6,
    );
    f.set([NaN, Infinity, -Infinity, NaN, NaN, NaN]);
    return joinGlb(json, data);
  });
  edit('infinite-bounds', (json) => {
    const pos = json.meshes[0].primitives[0].attributes.POSITION;
    const text = JSON.stringify(json).replace(
      `"max":${JSON.stringify(json.accessors[pos].max)}`,
      '"max":[1e999,1e999,1e999]',
    );
    return joinGlb(null, splitGlb(base).bin, text);
  });
  // 10,000 materials
  edit('materials-10000', (json) => {
    json.materials = Array.from({ length: 10_000 }, (_, i) => ({ name: `m${i}` }));
  });
  // a JSON nesting bomb in extras
  edit('json-nesting-100000', (json, bin) =>
    joinGlb(null, bin, JSON.stringify(json).replace(/}$/, `,"extras":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)),
  );
  // not glTF at all, and empty
  add('empty', new Uint8Array(0));
  add('random-bytes', new Uint8Array(Buffer.from('glTF'.repeat(1) + 'x'.repeat(200))));
  return out;
}
