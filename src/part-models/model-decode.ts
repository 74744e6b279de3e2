/**
 * What artists' tools export, decoded before validation so everything after (the Khronos
 * validator, preparation, the stored GLB, the stage's GLTFLoader) sees plain glTF: Draco geometry
 * (KHR_draco_mesh_compression: Blender, Sketchfab and most web pipelines), meshopt streams
 * (EXT_/KHR_meshopt_compression: gltfpack; the validator cannot read them), KTX2/Basis textures
 * (KHR_texture_basisu: transcoded to PNG here, WebP once prepared) and spec-gloss materials
 * (KHR_materials_pbrSpecularGlossiness: three.js no longer reads it and draws them white;
 * converted to metal-rough by glTF-Transform's metalRough()). Quantized input
 * (KHR_mesh_quantization) needs nothing: it is plain accessors the validator and the stage read.
 *
 * The Basis transcoder is the WebAssembly one three.js ships (examples/jsm/libs/basis), loaded
 * from node_modules by path in source and compiled mode alike.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import type { Document, Texture } from '@gltf-transform/core';
import { metalRough, unpartition } from '@gltf-transform/functions';
import sharp from 'sharp';
import { ModelRejectedError } from './model-errors.js';
import { modelJson, type ModelInput } from './model-input.js';
import { CollectingLogger, modelIO, readModelDocument } from './model-io.js';

export const MESHOPT_EXTENSIONS = ['EXT_meshopt_compression', 'KHR_meshopt_compression'];
const DRACO = 'KHR_draco_mesh_compression';
const BASISU = 'KHR_texture_basisu';
const SPEC_GLOSS = 'KHR_materials_pbrSpecularGlossiness';
const DECODED = [...MESHOPT_EXTENSIONS, DRACO, BASISU, SPEC_GLOSS];

/** A model with its compression and legacy materials decoded. */
export interface DecodedModel {
  /** a plain GLB (no Draco, meshopt, KTX2 or spec-gloss) to validate and prepare */
  input: ModelInput;
  /** the extensions decoded, as the file named them */
  decoded: string[];
  /** what the decoding changed that an artist should know */
  warnings: string[];
}

function extensionsUsed(input: ModelInput): string[] {
  const used: unknown = modelJson(input.kind, input.bytes)?.extensionsUsed;
  return Array.isArray(used) ? used.map(String) : [];
}

/** Does the input use anything decodeModel decodes? (JSON only: cheap, for every input) */
export function needsDecoding(input: ModelInput): boolean {
  return extensionsUsed(input).some((e) => DECODED.includes(e));
}

/** The slice of three.js's Basis transcoder used here (Emscripten embind classes). */
interface KTX2File {
  isValid(): boolean;
  getWidth(): number;
  getHeight(): number;
  getHasAlpha(): boolean;
  startTranscoding(): boolean;
  getImageTranscodedSizeInBytes(level: number, layer: number, face: number, format: number): number;
  transcodeImage(
    out: Uint8Array,
    level: number,
    layer: number,
    face: number,
    format: number,
    getAlphaForOpaque: number,
    channel0: number,
    channel1: number,
  ): number;
  close(): void;
  delete(): void;
}
interface BasisModule {
  initializeBasis(): void;
  KTX2File: new (bytes: Uint8Array) => KTX2File;
  transcoder_texture_format: { cTFRGBA32: { value: number } };
}

let basis: Promise<BasisModule> | undefined;

/**
 * three.js's Basis transcoder. Its .js is an Emscripten CommonJS factory inside three's
 * "type": "module" package, which Node will not load as either: so it runs as a function given
 * CommonJS's names, and gets its .wasm as bytes (no file lookup of its own).
 */
function basisModule(): Promise<BasisModule> {
  basis ??= (async () => {
    const require = createRequire(import.meta.url);
    const js = require.resolve('three/examples/jsm/libs/basis/basis_transcoder.js');
    const mod: { exports: unknown } = { exports: {} };
    vm.compileFunction(readFileSync(js, 'utf8'), ['module', 'exports', 'require', '__filename', '__dirname'], {
      filename: js,
    })(mod, mod.exports, require, js, '');
    const factory = mod.exports as (opts: { wasmBinary: Uint8Array }) => Promise<BasisModule>;
    const m = await factory({ wasmBinary: readFileSync(js.replace(/\.js$/, '.wasm')) });
    m.initializeBasis();
    return m;
  })();
  return basis;
}

/** KTX2 header fields read for a message: vkFormat 0 is Basis (ETC1S or UASTC), anything else a GPU format. */
function ktx2VkFormat(bytes: Uint8Array): number {
  return bytes.byteLength >= 16
    ? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(12, true)
    : -1;
}

/** A KTX2/Basis image's base level as PNG (RGB, or RGBA where it has alpha). */
export async function ktx2ToPng(bytes: Uint8Array, label: string, name: string): Promise<Uint8Array> {
  try {
    return await transcode(await basisModule(), bytes, label, name);
  } catch (err) {
    if (err instanceof ModelRejectedError) throw err;
    // the transcoder aborted (its WebAssembly is unusable after): a fresh one for the next file
    basis = undefined;
    throw new ModelRejectedError(
      `${name}: image "${label}" (KTX2/Basis) does not transcode: its data is damaged: encode the texture again (or use PNG, JPEG or WebP)`,
      [
        {
          message:
            `${err instanceof Error ? err.name : 'Error'}: ${err instanceof Error ? err.message : String(err)}`.slice(
              0,
              300,
            ),
        },
      ],
    );
  }
}

async function transcode(m: BasisModule, bytes: Uint8Array, label: string, name: string): Promise<Uint8Array> {
  const file = new m.KTX2File(bytes);
  try {
    const vkFormat = ktx2VkFormat(bytes);
    if (!file.isValid() || vkFormat !== 0) {
      throw new ModelRejectedError(
        `${name}: image "${label}" is a KTX2 the farm cannot read (${vkFormat > 0 ? `GPU format vkFormat ${vkFormat}, not Basis` : 'not a valid KTX2'}): ` +
          'use KTX2 with Basis (ETC1S or UASTC, e.g. toktx --encode etc1s), or PNG, JPEG or WebP textures',
      );
    }
    const width = file.getWidth();
    const height = file.getHeight();
    const format = m.transcoder_texture_format.cTFRGBA32.value;
    const out = new Uint8Array(file.getImageTranscodedSizeInBytes(0, 0, 0, format));
    if (!file.startTranscoding() || !file.transcodeImage(out, 0, 0, 0, format, 0, -1, -1)) {
      throw new ModelRejectedError(
        `${name}: image "${label}" (KTX2/Basis) does not transcode: its data is damaged: encode the texture again (or use PNG, JPEG or WebP)`,
      );
    }
    const img = sharp(out, { raw: { width, height, channels: 4 } });
    return new Uint8Array(await (file.getHasAlpha() ? img : img.removeAlpha()).png().toBuffer());
  } finally {
    file.close();
    file.delete();
  }
}

/** Every KTX2 texture as PNG; returns how many. */
async function decodeKtx2(doc: Document, name: string): Promise<number> {
  let n = 0;
  for (const [i, texture] of doc.getRoot().listTextures().entries()) {
    const image = texture.getImage();
    if (texture.getMimeType() !== 'image/ktx2' || !image) continue;
    const label = textureLabel(texture, i);
    texture.setImage(await ktx2ToPng(image, label, name)).setMimeType('image/png');
    if (texture.getURI()) texture.setURI(texture.getURI().replace(/\.ktx2$/i, '.png'));
    n++;
  }
  return n;
}

function textureLabel(texture: Texture, i: number): string {
  return texture.getName() || texture.getURI() || `texture ${i}`;
}

/**
 * Decodes `input`'s Draco geometry, meshopt streams, KTX2 textures and spec-gloss materials into
 * a plain GLB; null when it uses none (nothing is read twice). Throws ModelRejectedError naming
 * what does not decode and the fix.
 */
export async function decodeModel(input: ModelInput): Promise<DecodedModel | null> {
  const used = extensionsUsed(input).filter((e) => DECODED.includes(e));
  if (!used.length) return null;
  const logger = new CollectingLogger();
  const doc = await readModelDocument(input, logger);
  const warnings: string[] = [];
  if (used.includes(BASISU)) await decodeKtx2(doc, input.name);
  if (used.includes(SPEC_GLOSS)) {
    const n = doc
      .getRoot()
      .listMaterials()
      .filter((m) => m.getExtension(SPEC_GLOSS)).length;
    await doc.transform(metalRough());
    warnings.push(
      `${n} spec-gloss material${n === 1 ? '' : 's'} (${SPEC_GLOSS}) converted to metal-rough: check the look in models preview`,
    );
  }
  // decoded data stays decoded: written plain, never compressed again here
  for (const ext of doc.getRoot().listExtensionsUsed()) if (used.includes(ext.extensionName)) ext.dispose();
  await doc.transform(unpartition());
  let bytes: Uint8Array;
  try {
    bytes = await (await modelIO(logger)).writeBinary(doc);
  } catch (err) {
    throw new ModelRejectedError(
      `${input.name}: its decoded data cannot be written back as glTF: check it with the Khronos glTF validator and export it again as .glb`,
      [
        {
          message:
            `${err instanceof Error ? err.name : 'Error'}: ${err instanceof Error ? err.message : String(err)}`.slice(
              0,
              300,
            ),
        },
      ],
    );
  }
  return { input: { name: input.name, kind: 'glb', bytes, resources: {} }, decoded: used, warnings };
}
