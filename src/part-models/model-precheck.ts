/**
 * Structural limits checked before any parser sees a model (the Khronos validator's compiled
 * Dart, glTF-Transform, meshoptimizer, sharp): the GLB container's lengths, the JSON's nesting,
 * counts of nodes, meshes, materials, accessors and images, the node graph's shape (a tree:
 * no cycles, no node with two parents, bounded depth), the bytes accessors and buffer views claim
 * against those that came, what compressed data would decode to (Draco primitives' accessors have
 * no buffer view: bounded like any implicit data), and each image's dimensions read from its
 * header (a KTX2's level index too). Each is cheap (no decoding, no recursion) and each stops a file that would make a parser recurse, loop or allocate without bound: a chain of 20,000 nested nodes
 * overflowed the validator's stack; a 1 KiB PNG can declare 10^10 pixels.
 *
 * Everything not checked here is left to the validator, which gives the precise glTF words.
 */
import { ModelRejectedError } from './model-errors.js';
import { isGlb, type ModelInput } from './model-input.js';
import { TEXTURE_REFUSE_FACTOR, type ModelLimits } from './model-limits.js';

/** Fixed bounds no real part model comes near (the configurable ones are in ModelLimits). */
export const STRUCTURE_LIMITS = {
  /** nesting of the JSON itself (glTF needs ~8; the rest is room for extras) */
  jsonDepth: 64,
  /** levels of the node tree below a scene's root (rigs are tens deep) */
  nodeDepth: 256,
  meshes: 4096,
  primitives: 8192,
  materials: 1024,
  accessors: 32768,
  bufferViews: 32768,
  images: 256,
  textures: 1024,
  scenes: 16,
} as const;

/** What compressed geometry and declared-but-absent data may decode to, as a multiple of the byte limit. */
export const DECODED_BYTES_FACTOR = 4;

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

type Json = Record<string, unknown>;

function refuse(name: string, message: string, pointer?: string): never {
  throw new ModelRejectedError(`${name}: ${message}`, [{ message, ...(pointer ? { pointer } : {}) }]);
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (json: Json, key: string): unknown[] => (Array.isArray(json[key]) ? (json[key] as unknown[]) : []);
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);

/** The GLB's JSON text and BIN chunk, with every length in the header checked against the bytes. */
function readGlb(name: string, bytes: Uint8Array): { json: string; bin: Uint8Array | null } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 20)
    refuse(name, `a GLB of ${bytes.byteLength} bytes is too short for its header: the file is truncated`);
  const version = view.getUint32(4, true);
  if (version !== 2) refuse(name, `GLB version ${version}: only glTF 2.0 is read: export it again as glTF 2.0 (.glb)`);
  const declared = view.getUint32(8, true);
  if (declared !== bytes.byteLength) {
    refuse(
      name,
      `the GLB header says ${declared} bytes but the file has ${bytes.byteLength}: the file is ${declared > bytes.byteLength ? 'truncated' : 'damaged'}: upload it again`,
    );
  }
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== 0x4e4f534a)
    refuse(name, 'the GLB does not start with its JSON chunk: export it again as glTF Binary (.glb)');
  if (20 + jsonLength > bytes.byteLength)
    refuse(name, `the GLB's JSON chunk claims ${jsonLength} bytes, past the end of the file: the file is truncated`);
  const json = new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength));
  const binAt = 20 + jsonLength + ((4 - (jsonLength % 4)) % 4);
  if (binAt + 8 > bytes.byteLength) return { json, bin: null };
  const binLength = view.getUint32(binAt, true);
  if (binAt + 8 + binLength > bytes.byteLength)
    refuse(name, `the GLB's binary chunk claims ${binLength} bytes, past the end of the file: the file is truncated`);
  return { json, bin: bytes.subarray(binAt + 8, binAt + 8 + binLength) };
}

/** The JSON, parsed, with its nesting bounded (walked without recursion). */
function parseJson(name: string, text: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    refuse(name, `the glTF JSON does not parse (${(err as Error).message}): export it again from the authoring tool`);
  }
  if (!isObject(parsed)) refuse(name, 'the glTF JSON is not an object: this is not a glTF file');
  const stack: Array<[unknown, number]> = [[parsed, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (depth > STRUCTURE_LIMITS.jsonDepth)
      refuse(name, `the glTF JSON nests deeper than ${STRUCTURE_LIMITS.jsonDepth} levels: remove the nested extras`);
    if (typeof value === 'object' && value !== null)
      for (const v of Object.values(value)) if (typeof v === 'object' && v !== null) stack.push([v, depth + 1]);
  }
  return parsed;
}

function checkCounts(name: string, json: Json, limits: ModelLimits): void {
  const nodes = list(json, 'nodes').length;
  if (nodes > limits.modelMaxNodes) {
    refuse(
      name,
      `${nodes} nodes, over the limit of ${limits.modelMaxNodes}: join meshes in the authoring tool (or raise RENDER_FARM_MODEL_MAX_NODES)`,
      '/nodes',
    );
  }
  const bounds: Array<[keyof typeof STRUCTURE_LIMITS, string, string]> = [
    ['scenes', 'scenes', 'keep one scene'],
    ['meshes', 'meshes', 'join meshes in the authoring tool'],
    ['materials', 'materials', 'merge materials in the authoring tool'],
    ['accessors', 'accessors', 'join meshes in the authoring tool'],
    ['bufferViews', 'buffer views', 'export it again as one .glb'],
    ['images', 'images', 'use fewer, shared textures'],
    ['textures', 'textures', 'use fewer, shared textures'],
  ];
  for (const [key, words, fix] of bounds) {
    const n = list(json, key).length;
    if (n > STRUCTURE_LIMITS[key])
      refuse(name, `${n} ${words}, over the limit of ${STRUCTURE_LIMITS[key]} a part model: ${fix}`, `/${key}`);
  }
  const primitives = list(json, 'meshes').reduce<number>(
    (n, m) => n + (isObject(m) ? list(m, 'primitives').length : 0),
    0,
  );
  if (primitives > STRUCTURE_LIMITS.primitives)
    refuse(
      name,
      `${primitives} primitives, over the limit of ${STRUCTURE_LIMITS.primitives} a part model: join meshes in the authoring tool`,
      '/meshes',
    );
}

/** The node graph is a forest of bounded depth: no index out of range, no two parents, no cycle. */
function checkNodeTree(name: string, json: Json, maxDepth: number): void {
  const nodes = list(json, 'nodes');
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, i) => {
    if (!isObject(node)) return;
    for (const child of list(node, 'children')) {
      const c = count(child);
      if (c === null || c >= nodes.length)
        refuse(name, `node ${i} names a child ${JSON.stringify(child)} that is not a node`, `/nodes/${i}/children`);
      if (c === i) refuse(name, `node ${i} is its own child: the node graph must be a tree`, `/nodes/${i}/children`);
      if (parent[c] !== -1)
        refuse(
          name,
          `node ${c} is a child of both node ${parent[c]} and node ${i}: the node graph must be a tree`,
          `/nodes/${i}/children`,
        );
      parent[c] = i;
    }
  });
  const depth = new Int32Array(nodes.length).fill(0);
  let seen = 0;
  // from every root, level by level, without recursion
  const stack: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (parent[i] !== -1) continue;
    depth[i] = 1;
    stack.push(i);
  }
  while (stack.length) {
    const i = stack.pop()!;
    seen++;
    if (depth[i]! > maxDepth) {
      refuse(
        name,
        `the node tree is more than ${maxDepth} levels deep: flatten the hierarchy in the authoring tool (apply transforms, join meshes)`,
        `/nodes/${i}`,
      );
    }
    const node = nodes[i];
    if (!isObject(node)) continue;
    for (const child of list(node, 'children')) {
      depth[child as number] = depth[i]! + 1;
      stack.push(child as number);
    }
  }
  if (seen < nodes.length)
    refuse(
      name,
      `the node graph has a cycle (${nodes.length - seen} nodes are their own ancestors): the node graph must be a tree`,
      '/nodes',
    );
  list(json, 'scenes').forEach((scene, s) => {
    if (!isObject(scene)) return;
    for (const root of list(scene, 'nodes')) {
      const r = count(root);
      if (r === null || r >= nodes.length)
        refuse(name, `scene ${s} names a node ${JSON.stringify(root)} that is not there`, `/scenes/${s}/nodes`);
    }
  });
}

/** Bytes each buffer really has: the GLB's BIN chunk, a file that came along, or a data: URI. */
function bufferBytes(json: Json, input: ModelInput, bin: Uint8Array | null): Array<number | null> {
  return list(json, 'buffers').map((b, i) => {
    if (!isObject(b)) return null;
    // a buffer with no uri but the GLB's first is a meshopt fallback (no bytes by design) or an error the validator names
    if (typeof b.uri !== 'string') return i === 0 && bin ? bin.byteLength : null;
    if (/^data:/i.test(b.uri)) {
      const comma = b.uri.indexOf(',');
      return comma < 0 ? 0 : Math.floor(((b.uri.length - comma - 1) * 3) / 4);
    }
    return (input.resources[b.uri] ?? input.resources[safeDecode(b.uri)])?.byteLength ?? null;
  });
}

function safeDecode(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

/** Declared sizes of buffers, views and accessors against the bytes that came; what decoding would allocate, bounded. */
function checkSizes(name: string, json: Json, input: ModelInput, bin: Uint8Array | null, limits: ModelLimits): void {
  const maxDecoded = limits.modelMaxBytes * DECODED_BYTES_FACTOR;
  const have = bufferBytes(json, input, bin);
  const buffers = list(json, 'buffers');
  buffers.forEach((b, i) => {
    const declared = isObject(b) ? count(b.byteLength) : null;
    const got = have[i];
    // a missing file is model-input.ts's to report; 4 bytes of GLB padding are allowed
    if (declared !== null && got !== null && got !== undefined && declared > got + 3) {
      refuse(
        name,
        `buffer ${i} declares ${declared} bytes but ${got} came: the file is truncated or its header lies: export it again`,
        `/buffers/${i}/byteLength`,
      );
    }
  });
  let decoded = 0;
  const views = list(json, 'bufferViews');
  views.forEach((v, i) => {
    if (!isObject(v)) return;
    const offset = count(v.byteOffset ?? 0);
    const length = count(v.byteLength);
    const buffer = count(v.buffer);
    const declared = buffer !== null && isObject(buffers[buffer]) ? count((buffers[buffer] as Json).byteLength) : null;
    if (offset !== null && length !== null && declared !== null && offset + length > declared) {
      refuse(
        name,
        `buffer view ${i} (bytes ${offset}..${offset + length}) reaches past the end of buffer ${buffer} (${declared} bytes)`,
        `/bufferViews/${i}`,
      );
    }
    // EXT_meshopt_compression: the view's own byteLength is what decoding allocates
    if (
      length !== null &&
      isObject(v.extensions) &&
      Object.keys(v.extensions).some((k) => k.endsWith('_meshopt_compression'))
    )
      decoded += length;
  });
  // KHR_draco_mesh_compression: accessors without a bufferView (counted below as decoded); its own view must exist
  list(json, 'meshes').forEach((m, mi) => {
    if (!isObject(m)) return;
    list(m, 'primitives').forEach((p, pi) => {
      const draco = isObject(p) && isObject(p.extensions) ? p.extensions.KHR_draco_mesh_compression : undefined;
      if (!isObject(draco)) return;
      const v = count(draco.bufferView);
      if (v === null || v >= views.length)
        refuse(
          name,
          `mesh ${mi} primitive ${pi}: its Draco data names buffer view ${JSON.stringify(draco.bufferView)}, which is not there: the file is damaged: export it again`,
          `/meshes/${mi}/primitives/${pi}/extensions/KHR_draco_mesh_compression/bufferView`,
        );
    });
  });
  list(json, 'accessors').forEach((a, i) => {
    if (!isObject(a)) return;
    const n = count(a.count);
    const elem = (COMPONENT_BYTES[a.componentType as number] ?? 0) * (TYPE_COMPONENTS[a.type as string] ?? 0);
    if (n === null || !elem) return; // the validator names what is wrong with it
    const bytes = n * elem;
    if (bytes > maxDecoded)
      refuse(
        name,
        `accessor ${i} declares ${n} elements (${bytes} bytes), more than a part model can hold: the file's counts are damaged`,
        `/accessors/${i}/count`,
      );
    // zeros, sparse or Draco-decoded data: allocated on reading (a count past its buffer view is the validator's to name)
    if (count(a.bufferView) === null) decoded += bytes;
  });
  if (decoded > maxDecoded) {
    refuse(
      name,
      `its compressed or implicit data would decode to ${decoded} bytes, over ${maxDecoded} (${DECODED_BYTES_FACTOR}x RENDER_FARM_MODEL_MAX_BYTES): simplify the model`,
    );
  }
}

/** Width and height from an image's header (PNG, JPEG, WebP, KTX2), or null for a format not read here. */
export function imageHeaderSize(b: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const ascii = (at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
  if (b.byteLength >= 24 && b[0] === 0x89 && ascii(1, 3) === 'PNG' && ascii(12, 4) === 'IHDR') {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (b.byteLength >= 30 && ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') {
    const chunk = ascii(12, 4);
    if (chunk === 'VP8 ')
      return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = view.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X')
      return {
        width: 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16)),
        height: 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16)),
      };
    return null;
  }
  if (b.byteLength >= 28 && b[0] === 0xab && ascii(1, 6) === 'KTX 20')
    return { width: view.getUint32(20, true), height: Math.max(1, view.getUint32(24, true)) };
  if (b.byteLength >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    // JPEG: walk the markers to the first start-of-frame (SOF0-15 but DHT, JPG and DAC)
    let at = 2;
    while (at + 9 <= b.byteLength) {
      if (b[at] !== 0xff) return null;
      const marker = b[at + 1]!;
      if (marker === 0xff) {
        at++;
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
      }
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        at += 2;
        continue;
      }
      at += 2 + view.getUint16(at + 2);
    }
  }
  return null;
}

/**
 * What is wrong with a KTX2 container, from its header and level index alone, or null: a 3D or
 * odd-faced texture is no material's image, and a level past the end of the file is a truncated
 * one (the transcoder would read out of bounds).
 */
export function ktx2Problem(b: Uint8Array): string | null {
  if (!(b.byteLength >= 12 && b[0] === 0xab && b[1] === 0x4b && b[2] === 0x54 && b[3] === 0x58)) return null;
  if (b.byteLength < 80) return 'is shorter than its header: the file is truncated: encode the texture again';
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const depth = view.getUint32(28, true);
  const faces = view.getUint32(36, true);
  const levels = Math.max(1, view.getUint32(40, true));
  if (depth > 1 || (faces !== 1 && faces !== 6))
    return `is a ${depth > 1 ? '3D' : `${faces}-faced`} texture, not a 2D image: use a 2D KTX2, PNG, JPEG or WebP`;
  if (80 + levels * 24 > b.byteLength)
    return `declares ${levels} levels, past the end of the file: the file is truncated: encode the texture again`;
  for (let l = 0; l < levels; l++) {
    const offset = Number(view.getBigUint64(80 + l * 24, true));
    const length = Number(view.getBigUint64(88 + l * 24, true));
    if (offset + length > b.byteLength)
      return `level ${l} (bytes ${offset}..${offset + length}) reaches past the end of the file (${b.byteLength} bytes): the file is truncated: encode the texture again`;
  }
  return null;
}

/** The bytes of image `i` where they can be found without decoding anything, else null. */
function imageBytes(img: Json, json: Json, input: ModelInput, bin: Uint8Array | null): Uint8Array | null {
  if (typeof img.uri === 'string') {
    if (/^data:/i.test(img.uri)) {
      const comma = img.uri.indexOf(',');
      // the header is in the first bytes: decode only those
      return comma < 0 ? null : new Uint8Array(Buffer.from(img.uri.slice(comma + 1, comma + 1 + 4096), 'base64'));
    }
    return input.resources[img.uri] ?? input.resources[safeDecode(img.uri)] ?? null;
  }
  const view = count(img.bufferView);
  const v = view === null ? null : list(json, 'bufferViews')[view];
  if (
    !isObject(v) ||
    count(v.buffer) !== 0 ||
    typeof (list(json, 'buffers')[0] as Json | undefined)?.uri === 'string' ||
    !bin
  )
    return null;
  const offset = count(v.byteOffset ?? 0) ?? 0;
  return bin.subarray(offset, offset + (count(v.byteLength) ?? 0));
}

function checkImages(name: string, json: Json, input: ModelInput, bin: Uint8Array | null, limits: ModelLimits): void {
  const refuseAbove = limits.modelMaxTextureSize * TEXTURE_REFUSE_FACTOR;
  list(json, 'images').forEach((img, i) => {
    if (!isObject(img)) return;
    const bytes = imageBytes(img, json, input, bin);
    const size = bytes ? imageHeaderSize(bytes) : null;
    if (!size) return; // decoded later, or refused there as undecodable
    if (size.width === 0 || size.height === 0)
      refuse(name, `image ${i} declares ${size.width}x${size.height} px: the image is damaged`, `/images/${i}`);
    const ktx2 = bytes ? ktx2Problem(bytes) : null;
    if (ktx2) refuse(name, `image ${i} (KTX2) ${ktx2}`, `/images/${i}`);
    if (Math.max(size.width, size.height) > refuseAbove) {
      const label =
        typeof img.name === 'string' && img.name
          ? img.name
          : typeof img.uri === 'string' && !/^data:/i.test(img.uri)
            ? img.uri
            : `image ${i}`;
      refuse(
        name,
        `image "${label}" is ${size.width}x${size.height} px, over ${refuseAbove} px a side: resize it to at most ${limits.modelMaxTextureSize} px before export`,
        `/images/${i}`,
      );
    }
  });
}

/**
 * Checks the structure of `input` against the limits before any parser reads it; throws
 * ModelRejectedError naming the first problem (with its JSON pointer). Returns nothing.
 */
export function precheckModel(input: ModelInput, limits: ModelLimits): void {
  const { name } = input;
  let text: string;
  let bin: Uint8Array | null = null;
  if (input.kind === 'glb') {
    // not a GLB at all: the validator stops at the header and says so in its own words
    if (!isGlb(input.bytes)) return;
    ({ json: text, bin } = readGlb(name, input.bytes));
  } else {
    text = new TextDecoder().decode(input.bytes);
  }
  const json = parseJson(name, text);
  checkCounts(name, json, limits);
  checkNodeTree(name, json, limits.modelMaxDepth ?? STRUCTURE_LIMITS.nodeDepth);
  checkSizes(name, json, input, bin, limits);
  checkImages(name, json, input, bin, limits);
}
