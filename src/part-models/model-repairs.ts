/**
 * Validator errors that three.js draws through, repaired where the repair cannot change what is
 * drawn, by a named list of the Khronos validator's codes. Older exporters (COLLADA2GLTF, early
 * Blender add-ons) wrote them in files that otherwise render correctly; refusing those files left
 * artists no way through. Any error not in the list still refuses the file (validate-model.ts),
 * and a repaired file is validated again before anything else reads it.
 */
import type { Document } from '@gltf-transform/core';
import { unpartition } from '@gltf-transform/functions';
import type { ModelInput } from './model-input.js';
import { CollectingLogger, modelIO, readModelDocument } from './model-io.js';

/** The validator codes repaired, and what the repair does (the warning's words). */
export const REPAIRABLE_CODES: Record<string, string> = {
  // three.js normalises skinning weights itself; dividing by the sum gives the same pose
  ACCESSOR_WEIGHTS_NON_NORMALIZED: 'skin weights that did not sum to 1 normalised',
  // the matrices are tightly packed whatever the stride says; glTF-Transform writes them without it
  SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE: 'byteStride removed from the inverse bind matrices',
};

/** A validator message as validate-model.ts reads it. */
export interface RepairableMessage {
  code: string;
  severity: number;
}

/** The repaired file and one warning per kind of repair (`x12` when it was found more than once). */
export interface RepairedModel {
  input: ModelInput;
  warnings: string[];
}

/** Can every error in `errors` be repaired? */
export function repairable(errors: RepairableMessage[]): boolean {
  return errors.length > 0 && errors.every((m) => m.code in REPAIRABLE_CODES);
}

/** Each vertex's weights (over all WEIGHTS_n sets) divided by their sum; all-zero vertices left (still an error). */
function normaliseWeights(doc: Document): void {
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      const sets = prim
        .listSemantics()
        .filter((s) => s.startsWith('WEIGHTS_'))
        .map((s) => prim.getAttribute(s)!);
      if (!sets.length) continue;
      const count = sets[0]!.getCount();
      const el = [0, 0, 0, 0];
      for (let i = 0; i < count; i++) {
        let sum = 0;
        for (const a of sets) sum += a.getElement(i, el).reduce((n, w) => n + w, 0);
        if (sum <= 0 || Math.abs(sum - 1) < 1e-6) continue;
        for (const a of sets)
          a.setElement(
            i,
            a.getElement(i, el).map((w) => w / sum),
          );
      }
    }
  }
}

/**
 * Repairs the errors named in `errors` (all must be in REPAIRABLE_CODES: call `repairable` first)
 * and writes the file again as a GLB; the caller validates the result.
 */
export async function repairModel(input: ModelInput, errors: RepairableMessage[]): Promise<RepairedModel> {
  const logger = new CollectingLogger();
  const doc = await readModelDocument(input, logger);
  const codes = new Map<string, number>();
  for (const m of errors) codes.set(m.code, (codes.get(m.code) ?? 0) + 1);
  if (codes.has('ACCESSOR_WEIGHTS_NON_NORMALIZED')) normaliseWeights(doc);
  // SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE: writing the document again is the repair
  await doc.transform(unpartition());
  const bytes = await (await modelIO(logger)).writeBinary(doc);
  const warnings = [...codes].map(([code, n]) => `repaired ${code}${n > 1 ? ` x${n}` : ''}: ${REPAIRABLE_CODES[code]}`);
  return { input: { name: input.name, kind: 'glb', bytes, resources: {} }, warnings };
}
