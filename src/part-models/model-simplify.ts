/**
 * Down to the triangle budget (RENDER_FARM_MODEL_MAX_TRIANGLES), whatever the model is made of.
 * meshoptimizer's simplifier (through glTF-Transform, attributes and seams kept) with its error
 * bound raised step by step, each step aiming at the budget from where the last one stopped; a
 * model of many small separate parts (screws, fins, a case's vents: every part a closed shell the
 * simplifier will not collapse) stops above the budget at any bound, so sloppy simplification
 * (meshoptimizer's vertex clustering, positions only) is the last resort. The bound a step fitted
 * under, or the error sloppy simplification reached, is reported with the counts. Refused only
 * when even that does not fit.
 */
import type { Document, Primitive } from '@gltf-transform/core';
import { compactPrimitive, prune, simplify } from '@gltf-transform/functions';
import { MeshoptSimplifier } from 'meshoptimizer';
import { ModelRejectedError } from './model-errors.js';
import { countTriangles } from './model-io.js';

/** Error bounds tried in turn, each a fraction of the mesh's size (meshoptimizer's relative error). */
export const SIMPLIFY_ERRORS = [0.001, 0.01, 0.05, 0.1, 0.2, 0.4];

/** Aim a little under the budget: the simplifiers stop near, not exactly at, the target. */
const AIM = 0.95;

/** What simplification did. */
export interface Simplification {
  before: number;
  after: number;
  /** the error bound the model fitted under, or the error sloppy simplification reached: a fraction of each mesh's size */
  error: number;
  /** sloppy simplification was needed */
  sloppy: boolean;
}

const TRIANGLES = 4;

/** Sloppy-simplifies one indexed triangle primitive to `ratio` of its triangles; returns the error reached. */
function sloppyPrimitive(doc: Document, prim: Primitive, ratio: number): number {
  const position = prim.getAttribute('POSITION');
  if (prim.getMode() !== TRIANGLES || !position) return 0;
  const n = position.getCount();
  const old = prim.getIndices();
  const indices = old ? Uint32Array.from(old.getArray() ?? []) : Uint32Array.from({ length: n }, (_, i) => i);
  // one triangle at least: a part is never simplified away (the budget check below refuses instead)
  const target = Math.max(3, Math.floor((indices.length * ratio) / 3) * 3);
  if (target >= indices.length) return 0;
  // positions as floats whatever the accessor holds (quantized input is normalised integers)
  const positions = new Float32Array(n * 3);
  const el = [0, 0, 0];
  for (let i = 0; i < n; i++) positions.set(position.getElement(i, el), i * 3);
  const [out, error] = MeshoptSimplifier.simplifySloppy(indices, positions, 3, null, target, 1);
  // a part clustered into nothing is gone: dropped (an empty primitive is no valid glTF)
  if (out.length === 0) {
    prim.dispose();
    return error;
  }
  // a new accessor: the old one may be shared with another primitive
  const array = n <= 65535 ? Uint16Array.from(out) : out;
  prim.setIndices(
    doc
      .createAccessor()
      .setType('SCALAR')
      .setArray(array)
      .setBuffer(old?.getBuffer() ?? position.getBuffer()),
  );
  compactPrimitive(prim);
  return error;
}

/**
 * Simplifies `doc` until it draws at most `budget` triangles. Throws ModelRejectedError when even
 * sloppy simplification cannot get there, saying what to do.
 */
export async function simplifyToBudget(doc: Document, name: string, budget: number): Promise<Simplification> {
  const before = countTriangles(doc);
  let triangles = before;
  let error = 0;
  for (const bound of SIMPLIFY_ERRORS) {
    if (triangles <= budget) break;
    await doc.transform(
      simplify({ simplifier: MeshoptSimplifier, ratio: Math.min(1, (budget * AIM) / triangles), error: bound }),
    );
    triangles = countTriangles(doc);
    error = bound;
  }
  let sloppy = false;
  if (triangles > budget) {
    await MeshoptSimplifier.ready;
    sloppy = true;
    const ratio = (budget * AIM) / triangles;
    // the error sloppy simplification reached replaces the bound: it is what the model now is
    error = 0;
    for (const mesh of doc.getRoot().listMeshes())
      for (const prim of mesh.listPrimitives()) error = Math.max(error, sloppyPrimitive(doc, prim, ratio));
    // meshes left without primitives go with their nodes' mesh (anchors and other empties stay)
    for (const node of doc.getRoot().listNodes()) if (node.getMesh()?.listPrimitives().length === 0) node.setMesh(null);
    await doc.transform(prune({ keepLeaves: true, keepExtras: true }));
    triangles = countTriangles(doc);
  }
  if (triangles > budget || triangles === 0) {
    throw new ModelRejectedError(
      `${name}: ${before} triangles, over the budget of ${budget} per part, and simplification cannot get there ` +
        `(${triangles === 0 ? 'nothing is left at that budget' : `still ${triangles}`} after raising the error bound to ${pct(SIMPLIFY_ERRORS.at(-1)!)} of each mesh's size, then sloppy): ` +
        `decimate it in the authoring tool (Blender: Decimate modifier; drop small hidden parts) or raise RENDER_FARM_MODEL_MAX_TRIANGLES`,
    );
  }
  return { before, after: triangles, error, sloppy };
}

/** `0.05` as `5%` (to two significant digits). */
export function pct(fraction: number): string {
  return `${Number((fraction * 100).toPrecision(2))}%`;
}

/** The warning that says what simplification did. */
export function simplificationWarning(s: Simplification, budget: number): string {
  return (
    `simplified from ${s.before} to ${s.after} triangles (budget ${budget}), ` +
    (s.sloppy
      ? `sloppy simplification needed, error ${pct(s.error)} of the mesh size: small parts may have merged or gone: check it in models preview`
      : `within an error of ${pct(s.error)} of each mesh's size`)
  );
}
