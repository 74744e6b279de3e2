/**
 * glTF-Transform's reader and writer as part models need them: every extension it knows, the
 * meshopt encoder and decoder registered (prepared models are EXT_meshopt_compression), and
 * resources taken only from a ModelInput, never from the filesystem or the network.
 */
import { Document, GLB_BUFFER, NodeIO, type ILogger, type JSONDocument } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
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

let ready: Promise<void> | undefined;

/** A NodeIO with ALL_EXTENSIONS and the meshopt codecs (their WebAssembly compiled once per process). */
export async function modelIO(logger: ILogger = new CollectingLogger()): Promise<NodeIO> {
  ready ??= Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]).then(() => undefined);
  await ready;
  return new NodeIO()
    .setLogger(logger)
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({ 'meshopt.encoder': MeshoptEncoder, 'meshopt.decoder': MeshoptDecoder });
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
  if (!json) throw new ModelRejectedError(`${input.name}: not a readable GLB (bad header or JSON chunk): export it again as glTF Binary (.glb)`);
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
export async function readModelDocument(input: ModelInput, logger: ILogger = new CollectingLogger()): Promise<Document> {
  const io = await modelIO(logger);
  try {
    if (input.kind === 'glb' && isGlb(input.bytes)) return await io.readJSON(glbToJson(input));
    const json = modelJson('gltf', input.bytes);
    if (!json) throw new Error('not glTF JSON');
    return await io.readJSON({ json, resources: ownResources(input) });
  } catch (err) {
    if (err instanceof ModelRejectedError) throw err;
    throw new ModelRejectedError(`${input.name}: cannot be read as glTF 2.0 (${(err as Error).message}): export it again as .glb from the authoring tool`);
  }
}

/** Triangles drawn by the document's scene meshes (TRIANGLES, strips and fans; points and lines draw none). */
export function countTriangles(doc: Document): number {
  let n = 0;
  for (const mesh of doc.getRoot().listMeshes()) {
    // a mesh used by several nodes is drawn several times
    const uses = doc.getRoot().listNodes().filter((node) => node.getMesh() === mesh).length;
    for (const prim of mesh.listPrimitives()) {
      const count = prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')?.getCount() ?? 0;
      const mode = prim.getMode();
      const tris = mode === 4 ? Math.floor(count / 3) : mode === 5 || mode === 6 ? Math.max(0, count - 2) : 0;
      n += tris * uses;
    }
  }
  return n;
}
