/**
 * Is this a glTF 2.0 model the farm can take? The Khronos validator (`gltf-validator`) decides
 * validity: any error refuses the model with its first messages and JSON pointers. Before it, model-precheck.ts's
 * structural limits (no parser runs on a file that fails them). Then the
 * limits an operator sets: bytes, nodes, texture sizes; triangles are counted and reported here
 * and budgeted in prepare-model.ts (which simplifies down to the budget).
 *
 * Compression and legacy materials (meshopt, Draco, KTX2/Basis, spec-gloss): the validator
 * cannot read compressed data (it skips it). An input that uses them is decoded first
 * (model-decode.ts) and the decoded file is validated, so its accessors are checked all the same.
 * Errors three.js draws through are repaired by a named list of codes (model-repairs.ts) and the
 * repaired file validated again. `input` in the report is the file to prepare.
 */
import { createRequire } from 'node:module';
import type { Document } from '@gltf-transform/core';
import sharp from 'sharp';
import { MAX_MODEL_PROBLEMS, ModelRejectedError, ModelTooLargeError } from './model-errors.js';
import { decodeModel, MESHOPT_EXTENSIONS } from './model-decode.js';
import type { ModelInput } from './model-input.js';
import { CollectingLogger, countTriangles, readModelDocument } from './model-io.js';
import { precheckModel } from './model-precheck.js';
import { repairable, repairModel } from './model-repairs.js';
import { TEXTURE_REFUSE_FACTOR, type ModelLimits } from './model-limits.js';

/** One message of the validator's report. */
interface ValidatorMessage {
  code: string;
  message: string;
  /** 0 error, 1 warning, 2 info, 3 hint */
  severity: number;
  pointer?: string;
  offset?: number;
}

/** The part of the validator's report read here (its JS API ships no types). */
interface ValidatorReport {
  issues: { numErrors: number; numWarnings: number; numInfos: number; numHints: number; messages: ValidatorMessage[] };
  info?: { generator?: string; totalTriangleCount?: number; totalVertexCount?: number; materialCount?: number };
}

interface GltfValidator {
  validateBytes(
    data: Uint8Array,
    options: {
      uri?: string;
      format?: 'glb' | 'gltf';
      maxIssues?: number;
      writeTimestamp?: boolean;
      externalResourceFunction?: (uri: string) => Promise<Uint8Array>;
    },
  ): Promise<ValidatorReport>;
}

// a CommonJS build of Dart code without typings: loaded through require and typed above
const validator: GltfValidator = createRequire(import.meta.url)('gltf-validator');

/** An image a texture uses, as sharp reads it. */
export interface TextureInfo {
  /** the image's name or URI, else its index */
  name: string;
  mimeType: string;
  width: number;
  height: number;
}

/** What validation found in a model that passed it. */
export interface ValidationReport {
  errors: 0;
  warnings: number;
  infos: number;
  hints: number;
  /** the first warnings, `message (pointer)` */
  warningMessages: string[];
  generator: string | null;
  /** EXT_meshopt_compression was decoded before validating */
  meshoptDecoded: boolean;
  /** the extensions decoded before validating (model-decode.ts) */
  decoded: string[];
  /** the file to prepare: the decoded or repaired one where one was made, else the input */
  input: ModelInput;
  /** `input` as read by glTF-Transform: preparation transforms this one instead of reading the file again */
  doc: Document;
  triangles: number;
  vertices: number;
  nodes: number;
  materials: number;
  textures: TextureInfo[];
  /** images over `modelMaxTextureSize` a side (preparation resizes them) */
  oversizeTextures: number;
}

function formatMessage(m: ValidatorMessage): string {
  return m.pointer
    ? `${m.message} (${m.pointer})`
    : m.offset !== undefined
      ? `${m.message} (byte ${m.offset})`
      : m.message;
}

async function runValidator(input: ModelInput, bytes: Uint8Array, kind: ModelInput['kind']): Promise<ValidatorReport> {
  try {
    return await validator.validateBytes(bytes, {
      uri: input.name,
      format: kind,
      maxIssues: 200,
      writeTimestamp: false,
      // only the files that came with the model (model-input.ts resolved and checked every URI)
      externalResourceFunction: (uri) => {
        const found = input.resources[uri] ?? input.resources[safeDecode(uri)];
        return found ? Promise.resolve(found) : Promise.reject(new Error(`${uri} did not come with the model`));
      },
    });
  } catch (err) {
    // the validator rejects only when it cannot tell glTF from GLB at all
    throw new ModelRejectedError(
      `${input.name}: not a glTF 2.0 file: ${err instanceof Error ? err.message : String(err)}: give a .glb or .gltf exported by a glTF 2.0 exporter`,
    );
  }
}

function safeDecode(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

/**
 * Validates a model against glTF 2.0 and the limits. Throws ModelRejectedError (the validator's
 * first errors, a node count or texture over the limits, an image that does not decode) or
 * ModelTooLargeError (bytes); else returns counts for the caller to report.
 * `logger` collects the reader's warnings (prepareModel passes its own, as it goes on with the document).
 */
export async function validateModel(
  input: ModelInput,
  limits: ModelLimits,
  logger = new CollectingLogger(),
): Promise<ValidationReport> {
  const total = Object.values(input.resources).reduce((n, b) => n + b.byteLength, input.bytes.byteLength);
  if (total > limits.modelMaxBytes) {
    throw new ModelTooLargeError(
      `${input.name}: ${total} bytes, over the limit of ${limits.modelMaxBytes}: compress or shrink the textures, or raise RENDER_FARM_MODEL_MAX_BYTES`,
      total,
      limits.modelMaxBytes,
    );
  }

  // before any parser: limits that stop a file making the parsers recurse or allocate without bound
  precheckModel(input, limits);
  const decoded = await decodeModel(input);
  let subject = decoded?.input ?? input;
  let report = await runValidator(subject, subject.bytes, subject.kind);
  let errors = report.issues.messages.filter((m) => m.severity === 0);
  const repairs: string[] = [];
  // only when every error is one three.js draws through (model-repairs.ts); else refused below
  if (report.issues.numErrors > 0 && report.issues.numErrors === errors.length && repairable(errors)) {
    const repaired = await repairModel(subject, errors);
    repairs.push(...repaired.warnings);
    subject = repaired.input;
    report = await runValidator(subject, subject.bytes, subject.kind);
    errors = report.issues.messages.filter((m) => m.severity === 0);
  }
  const { issues } = report;
  if (issues.numErrors > 0) {
    const first = errors[0];
    throw new ModelRejectedError(
      `${input.name}: not valid glTF 2.0 (${issues.numErrors} error${issues.numErrors === 1 ? '' : 's'}; the first: ${first ? formatMessage(first) : 'see details'}): fix it in the authoring tool and export again`,
      errors.slice(0, MAX_MODEL_PROBLEMS).map((m) => ({
        message: `${m.code}: ${m.message}`,
        ...(m.pointer ? { pointer: m.pointer } : {}),
        ...(m.offset !== undefined ? { offset: m.offset } : {}),
      })),
    );
  }

  const doc = await readModelDocument(subject, logger);
  const root = doc.getRoot();
  const nodes = root.listNodes().length;
  if (nodes > limits.modelMaxNodes) {
    throw new ModelRejectedError(
      `${input.name}: ${nodes} nodes, over the limit of ${limits.modelMaxNodes}: join meshes in the authoring tool (or raise RENDER_FARM_MODEL_MAX_NODES)`,
    );
  }

  const textures: TextureInfo[] = [];
  const refuseAbove = limits.modelMaxTextureSize * TEXTURE_REFUSE_FACTOR;
  for (const [i, texture] of root.listTextures().entries()) {
    const name = texture.getName() || texture.getURI() || `texture ${i}`;
    const image = texture.getImage();
    const meta = image
      ? await sharp(image)
          .metadata()
          .catch(() => null)
      : null;
    if (!meta?.width || !meta.height) {
      throw new ModelRejectedError(
        `${input.name}: image "${name}" (/images/${i}) cannot be decoded: use PNG, JPEG, WebP or KTX2/Basis textures`,
      );
    }
    if (Math.max(meta.width, meta.height) > refuseAbove) {
      throw new ModelRejectedError(
        `${input.name}: image "${name}" is ${meta.width}x${meta.height} px, over ${refuseAbove} px a side: resize it to at most ${limits.modelMaxTextureSize} px before export`,
      );
    }
    textures.push({ name, mimeType: texture.getMimeType(), width: meta.width, height: meta.height });
  }

  const warningMessages = issues.messages
    .filter((m) => m.severity === 1)
    .slice(0, MAX_MODEL_PROBLEMS)
    .map(formatMessage);
  return {
    errors: 0,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    warningMessages: [
      ...repairs,
      ...(decoded?.warnings ?? []),
      ...warningMessages,
      ...logger.warnings.slice(0, MAX_MODEL_PROBLEMS),
    ],
    generator: report.info?.generator ?? null,
    meshoptDecoded: decoded?.decoded.some((e) => MESHOPT_EXTENSIONS.includes(e)) ?? false,
    decoded: decoded?.decoded ?? [],
    input: subject,
    doc,
    triangles: countTriangles(doc),
    vertices: report.info?.totalVertexCount ?? 0,
    nodes,
    materials: root.listMaterials().length,
    textures,
    oversizeTextures: textures.filter((t) => Math.max(t.width, t.height) > limits.modelMaxTextureSize).length,
  };
}
