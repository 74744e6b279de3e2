/**
 * glTF-Transform's reader and writer as part models need them: the extensions it knows (not 3D
 * Tiles metadata), the meshopt encoder and decoder registered (prepared models are
 * EXT_meshopt_compression), the Draco decoder (artists' KHR_draco_mesh_compression; decoded, never
 * written), and resources taken only from a ModelInput, never from the filesystem or the network.
 */
import { createRequire } from 'node:module';
import { type Document, GLB_BUFFER, NodeIO, type ILogger, type JSONDocument } from '@gltf-transform/core';
import { ALL_EXTENSIONS, EXTMeshFeatures, EXTStructuralMetadata } from '@gltf-transform/extensions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { ModelRejectedError } from './model-errors.js';
import { isGlb, modelJson, type ModelInput } from './model-input.js';

/** A logger that keeps glTF-Transform's warnings (they end up in a report) and drops the chatter. */
export class CollectingLogger implements ILogger {
  readonly warnings: string[] = [];
  debug(): void {}
  info(): void {}
  warn(text: string): void {
    this.warnings.push(text);
  }
  error(text: string): void {
    this.warnings.push(text);
  }
}

// draco3dgltf is CommonJS without typings: its decoder factory, typed as used
const draco3d = createRequire(import.meta.url)('draco3dgltf') as {
  createDecoderModule(opts: object): Promise<unknown>;
};

/**
 * Every extension glTF-Transform knows but the 3D Tiles metadata pair (feature IDs, property
 * tables): nothing a render draws, and its reader throws on files that use them as 3D Tiles tools
 * write them (google/draco's BoxMetaDraco). Unregistered, an optional one is dropped on reading;
 * a required one is refused by name.
 */
const READ_EXTENSIONS = ALL_EXTENSIONS.filter((e) => e !== EXTMeshFeatures && e !== EXTStructuralMetadata);

let ready: Promise<unknown> | undefined;

/** A NodeIO with ALL_EXTENSIONS, the meshopt codecs and the Draco decoder (their WebAssembly compiled once per process, ~20 ms). */
export async function modelIO(logger: ILogger = new CollectingLogger()): Promise<NodeIO> {
  ready ??= Promise.all([draco3d.createDecoderModule({}), MeshoptEncoder.ready, MeshoptDecoder.ready]).then(
    ([draco]) => draco,
  );
  const dracoDecoder = await ready;
  return new NodeIO().setLogger(logger).registerExtensions(READ_EXTENSIONS).registerDependencies({
    'meshopt.encoder': MeshoptEncoder,
    'meshopt.decoder': MeshoptDecoder,
    'draco3d.decoder': dracoDecoder,
  });
}

/** The input's files in the type glTF-Transform takes (ours are never over a SharedArrayBuffer). */
function ownResources(input: ModelInput): JSONDocument['resources'] {
  const out: JSONDocument['resources'] = {};
  for (const [uri, bytes] of Object.entries(input.resources)) out[uri] = bytes as Uint8Array<ArrayBuffer>;
  return out;
}

/** The GLB's JSON and binary chunk as glTF-Transform's JSONDocument, external files from the input. */
function glbToJson(input: ModelInput): JSONDocument {
  const json = modelJson('glb', input.bytes);
  if (!json)
    throw new ModelRejectedError(
      `${input.name}: not a readable GLB (bad header or JSON chunk): export it again as glTF Binary (.glb)`,
    );
  const view = new DataView(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const binAt = 20 + jsonLength + (jsonLength % 4 ? 4 - (jsonLength % 4) : 0);
  const resources = ownResources(input);
  if (binAt + 8 <= input.bytes.byteLength) {
    const binLength = view.getUint32(binAt, true);
    resources[GLB_BUFFER] = input.bytes.subarray(binAt + 8, binAt + 8 + binLength) as Uint8Array<ArrayBuffer>;
  }
  return { json, resources };
}

/**
 * The input as a glTF-Transform Document. Throws ModelRejectedError when glTF-Transform cannot
 * read it (run validateModel first for the validator's precise words).
 */
export async function readModelDocument(
  input: ModelInput,
  logger: ILogger = new CollectingLogger(),
): Promise<Document> {
  const io = await modelIO(logger);
  try {
    if (input.kind === 'glb' && isGlb(input.bytes)) return await io.readJSON(glbToJson(input));
    const json = modelJson('gltf', input.bytes);
    if (!json) throw new Error('not glTF JSON');
    return await io.readJSON({ json, resources: ownResources(input) });
  } catch (err) {
    if (err instanceof ModelRejectedError) throw err;
    throw unreadable(input.name, err);
  }
}

/**
 * Why glTF-Transform could not read a file, in words an artist can act on. Its own errors name
 * the problem (a required extension it does not know, a missing buffer); a JavaScript error
 * (TypeError, RangeError) is a damaged file reaching code that trusted it: its text goes in the
 * details, never in the message.
 */
export function unreadable(name: string, err: unknown): ModelRejectedError {
  const text = err instanceof Error ? err.message : String(err);
  const required = /extension[^"]*"?(\w+_\w+)"?/i.exec(text)?.[1];
  if (err instanceof Error && /missing required extension/i.test(text) && required) {
    return new ModelRejectedError(
      `${name}: needs the glTF extension ${required}, which the farm does not read: export it again without ${required} (PNG/JPEG/WebP textures, no extra compression)`,
      [{ message: text }],
    );
  }
  if (err instanceof Error && err.name === 'Error' && !/undefined|null|is not a function/.test(text)) {
    return new ModelRejectedError(
      `${name}: cannot be read as glTF 2.0 (${text}): export it again as .glb from the authoring tool`,
      [{ message: text }],
    );
  }
  return new ModelRejectedError(
    `${name}: its glTF data is damaged where the reader needs it (buffers, accessors or compressed geometry do not match the JSON): check it with the Khronos glTF validator and export it again as .glb from the authoring tool`,
    [{ message: `${err instanceof Error ? err.name : 'Error'}: ${text}`.slice(0, 300) }],
  );
}

/** Triangles drawn by the document's scene meshes (TRIANGLES, strips and fans; points and lines draw none). */
export function countTriangles(doc: Document): number {
  let n = 0;
  for (const mesh of doc.getRoot().listMeshes()) {
    // a mesh used by several nodes is drawn several times
    const uses = doc
      .getRoot()
      .listNodes()
      .filter((node) => node.getMesh() === mesh).length;
    for (const prim of mesh.listPrimitives()) {
      const count = prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')?.getCount() ?? 0;
      const mode = prim.getMode();
      const tris = mode === 4 ? Math.floor(count / 3) : mode === 5 || mode === 6 ? Math.max(0, count - 2) : 0;
      n += tris * uses;
    }
  }
  return n;
}
