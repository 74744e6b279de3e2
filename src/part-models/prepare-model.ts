/**
 * A validated model made ready for the stage, with glTF-Transform (never by hand): duplicates
 * merged (materials with distinct names kept: RGB materials are recognised by name), vertices
 * welded, unused data pruned (empty leaf nodes kept: case anchors are empty nodes), meshes of one
 * material joined (anchors untouched), simplified with meshoptimizer down to the triangle budget,
 * textures resized and re-encoded to WebP with sharp, and meshopt-compressed for storage and
 * transfer. The result is a GLB three.js's GLTFLoader reads with MeshoptDecoder
 * (EXT_meshopt_compression, KHR_mesh_quantization, EXT_texture_webp), content-addressed by its
 * sha256 and the same bytes for the same input.
 *
 * Sizes: the scene is first turned and scaled into the authoring frame of src/model/part-models.ts
 * (model-orientation.ts: the rotation and units that bring its bounding box within a factor of 2
 * of the part's catalog size on every axis); a model nothing brings there is refused unless
 * `fit` (right proportions, wrong size) or `force`.
 *
 * Triangle budget: over `modelMaxTriangles` the model is simplified (model-simplify.ts: error
 * bound raised in steps, sloppy as the last resort); refused only when even that does not fit.
 */
import { getBounds, Node, type Document, type Transform } from '@gltf-transform/core';
import { dedup, join, meshopt, prune, textureCompress, unpartition, weld } from '@gltf-transform/functions';
import { MeshoptEncoder } from 'meshoptimizer';
import sharp from 'sharp';
import { normalizeSpecs } from '../model/normalize-specs.js';
import type { Category, SpecsByCategory } from '../model/part.js';
import { expectedModelSizeMm, isModelCategory, isRgbMaterial, MODEL_CATEGORIES } from '../model/part-models.js';
import { sha256Hex } from '../storage/content-hash.js';
import { ModelRejectedError } from './model-errors.js';
import type { ModelInput } from './model-input.js';
import { CollectingLogger, countTriangles, modelIO } from './model-io.js';
import type { ModelLimits } from './model-limits.js';
import { simplificationWarning, simplifyToBudget, type Simplification } from './model-simplify.js';
import { validateModel } from './validate-model.js';
import { groupWarnings } from './model-warnings.js';
import { orientModel, SIZE_TOLERANCE, type Orientation, type OrientationOverrides } from './model-orientation.js';

/** [x, y, z] */
export type Vec3 = [number, number, number];

/** A prepared model and what preparation did. */
export interface PreparedModel {
  glb: Uint8Array;
  /** lower-case hex sha256 of `glb`: the content address */
  sha256: string;
  triangles: number;
  originalTriangles: number;
  originalBytes: number;
  preparedBytes: number;
  nodes: number;
  textures: number;
  /** the prepared model's bounding box, mm [x, y, z] (after any fit) */
  sizeMm: Vec3;
  /** the box the part is expected to fill, mm (expectedModelSizeMm) */
  expectedMm: Vec3;
  /** the uniform scale applied: the file's units to metres, times fit's (1: metres, to size) */
  scale: number;
  /** the rotation and units found (or given) and applied before anything else (model-orientation.ts) */
  orientation: Orientation;
  /** names of the nodes starting with `anchor_` (CASE_ANCHORS) */
  anchors: string[];
  /** what simplification to the triangle budget did (model-simplify.ts), null when under it */
  simplification: Simplification | null;
  warnings: string[];
}

/** The part a model is for: its category and catalog specs give the expected size. */
export interface ModelPart {
  id: string;
  category: Category;
  specs: unknown;
}

export interface PrepareOptions {
  limits: ModelLimits;
  /** scale a model whose proportions fit (only its size is off) uniformly into the expected box */
  fit?: boolean;
  /** store a model whose proportions are not the part's anyway, with a warning */
  force?: boolean;
  /** what the file's up and front axes and units are, instead of detecting them (model-orientation.ts) */
  orientation?: OrientationOverrides;
}

export { SIZE_TOLERANCE };

/** The prefix of every CASE_ANCHORS name: such nodes are anchors, kept and reported. */
export const ANCHOR_PREFIX = 'anchor_';

function boundsMm(doc: Document): Vec3 | null {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return null;
  const { min, max } = getBounds(scene);
  if (!min.every(Number.isFinite) || !max.every(Number.isFinite)) return null;
  return [0, 1, 2].map((i) => round((max[i] - min[i]) * 1000)) as Vec3;
}

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/**
 * join() moves the primitives of joined nodes into one of them and leaves the others with empty
 * meshes; its own clean-up would prune every empty leaf, anchors too. So: drop those emptied
 * nodes here, and only them (empties the artist made, anchors or not, stay).
 */
const dropEmptiedNodes = (): Transform => (doc: Document) => {
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh || mesh.listPrimitives().length > 0) continue;
    node.setMesh(null);
    if (
      !node.listChildren().length &&
      !node.getCamera() &&
      !node.getSkin() &&
      !node.listExtensions().length &&
      !node.getName().startsWith(ANCHOR_PREFIX)
    ) {
      node.dispose();
    }
  }
};

/**
 * A node or mesh named as RGB (`ARGB_strip` with a plain `black` material: exporters name the
 * object, not its material) makes its materials RGB. join() merges nodes and drops their names,
 * so the tag moves here to the material's extras, on a copy where other meshes share it.
 * Material names and extras are the artist's explicit word and are left as they are.
 */
const tagRgbNodes = (): Transform => (doc: Document) => {
  const drawn = doc
    .getRoot()
    .listNodes()
    .filter((n) => n.getMesh());
  const named = drawn.filter(
    (n) => isRgbMaterial(n.getName(), n.getExtras()) || isRgbMaterial(n.getMesh()!.getName(), n.getMesh()!.getExtras()),
  );
  // every mesh so named is the product's name (`ARGB_Fan_120` in one piece), not its light
  if (named.length === drawn.length) return;
  for (const node of named) {
    let mesh = node.getMesh()!;
    // a mesh instanced by other nodes stays as it is for them
    if (mesh.listParents().filter((p) => p instanceof Node).length > 1) node.setMesh((mesh = mesh.clone()));
    for (const prim of mesh.listPrimitives()) {
      const m = prim.getMaterial();
      if (m && isRgbMaterial(m.getName(), m.getExtras())) continue;
      const tagged = m ? m.clone() : doc.createMaterial(node.getName());
      prim.setMaterial(tagged.setExtras({ ...tagged.getExtras(), rgb: true }));
    }
  }
};

/**
 * Validates `input` (validate-model.ts) and prepares it for `part`. Throws ModelRejectedError
 * for a category that takes no model, an invalid or empty model, a wrong size (without `fit`)
 * or a model still over the triangle budget after simplification; ModelTooLargeError over the
 * byte limit.
 */
export async function prepareModel(input: ModelInput, part: ModelPart, opts: PrepareOptions): Promise<PreparedModel> {
  const { limits } = opts;
  const category = part.category;
  if (!isModelCategory(category)) {
    throw new ModelRejectedError(
      `${part.id} is a ${category}: models are taken for ${MODEL_CATEGORIES.join(', ')} only (${category} stays procedural)`,
    );
  }
  // the reader's warnings go to this logger, once: the document validation read is the one prepared
  const logger = new CollectingLogger();
  const report = await validateModel(input, limits, logger);
  const warnings = [...report.warningMessages];
  // the decoded (Draco, KTX2, ...) or repaired file where validation made one
  const doc = report.doc;
  doc.setLogger(logger);

  const originalTriangles = countTriangles(doc);
  if (originalTriangles === 0)
    throw new ModelRejectedError(
      `${input.name}: the scene draws no triangles: export the meshes (not only empties, lines or points)`,
    );

  const expected = expectedModelSizeMm(
    category,
    normalizeSpecs(category, { id: part.id, specs: part.specs as SpecsByCategory[typeof category] }, []),
  );
  const orientation = orientModel(
    doc,
    input.name,
    { id: part.id, category },
    expected,
    { overrides: opts.orientation, fit: opts.fit === true, force: opts.force === true },
    warnings,
  );
  const scale = orientation.scale;

  const anchorNames = (d: Document) =>
    d
      .getRoot()
      .listNodes()
      .map((n) => n.getName())
      .filter((n) => n.startsWith(ANCHOR_PREFIX));
  const anchorsBefore = anchorNames(doc);

  await doc.transform(
    tagRgbNodes(),
    // distinct names stay distinct: an `RGB_ring` must not merge into an identical `ring`
    dedup({ keepUniqueNames: true }),
    weld(),
    // empty leaves are anchors; extras carry the `rgb` tag
    prune({ keepLeaves: true, keepExtras: true }),
    // join's own clean-up prunes empty leaves: off, done below with anchors kept
    join({ keepNamed: false, cleanup: false, filter: (node) => !node.getName().startsWith(ANCHOR_PREFIX) }),
    dropEmptiedNodes(),
    dedup({ keepUniqueNames: true }),
    prune({ keepLeaves: true, keepExtras: true }),
  );

  const simplification =
    countTriangles(doc) > limits.modelMaxTriangles
      ? await simplifyToBudget(doc, input.name, limits.modelMaxTriangles)
      : null;
  if (simplification) warnings.push(simplificationWarning(simplification, limits.modelMaxTriangles));
  const triangles = countTriangles(doc);

  const textures = doc.getRoot().listTextures().length;
  if (textures) {
    const max = limits.modelMaxTextureSize;
    const before = doc
      .getRoot()
      .listTextures()
      .map((t) => t.getSize());
    await doc.transform(textureCompress({ encoder: sharp, targetFormat: 'webp', resize: [max, max] }));
    // a cut texture looks softer in close-ups: say so, rather than let the artist wonder
    doc
      .getRoot()
      .listTextures()
      .forEach((t, i) => {
        const [from, to] = [before[i], t.getSize()];
        if (from && to && (from[0] !== to[0] || from[1] !== to[1])) {
          warnings.push(
            `texture ${i}: ${from[0]}x${from[1]} -> ${to[0]}x${to[1]} (over the texture limit of ${max} px, RENDER_FARM_MODEL_MAX_TEXTURE)`,
          );
        }
      });
  }
  const sizeMm = boundsMm(doc) ?? expected;
  // a GLB holds one buffer: a .gltf may come with several
  await doc.transform(unpartition(), meshopt({ encoder: MeshoptEncoder, level: 'medium' }));

  const anchors = anchorNames(doc);
  const lost = anchorsBefore.filter((a) => !anchors.includes(a));
  if (lost.length) warnings.push(`anchors lost in preparation: ${lost.join(', ')}`);
  warnings.push(...logger.warnings.filter((w) => !warnings.includes(w)));

  const glb = await (await modelIO(logger)).writeBinary(doc);
  const originalBytes = Object.values(input.resources).reduce((n, b) => n + b.byteLength, input.bytes.byteLength);
  return {
    glb,
    sha256: sha256Hex(glb),
    triangles,
    originalTriangles,
    originalBytes,
    preparedBytes: glb.byteLength,
    nodes: doc.getRoot().listNodes().length,
    textures,
    sizeMm,
    expectedMm: expected,
    scale,
    orientation,
    anchors,
    simplification,
    // one line per kind of warning, counted (model-warnings.ts)
    warnings: groupWarnings(warnings),
  };
}
