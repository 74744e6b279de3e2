/**
 * Models as real exports arrive (docs/part-models.md): the project's own example models (models example)
 * turned onto another axis and written in other units, as a DCC tool without the glTF axis
 * conversion, or a CAD tool in millimetres, writes them. Plain GLBs made here, never downloaded.
 */
import { type Document, NodeIO } from '@gltf-transform/core';
import type { Part } from '../../src/model/part.js';
import { exampleModel } from '../../src/part-models/example-models.js';
import type { ModelSketch } from '../../src/part-models/model-sketch.js';

const S = Math.SQRT1_2;
/** Quaternions [x, y, z, w] of the turns the tests author models with. */
export const TURNS = {
  none: [0, 0, 0, 1],
  /** +90 deg about Y: the part's length (Z) along +X */
  yPlus90: [0, S, 0, S],
  /** -90 deg about X: glTF's +Y up becomes +Z up (Blender without "+Y up") */
  xMinus90: [-S, 0, 0, S],
  /** +90 deg about Z: the part's height (Y) along -X, lying on its side */
  zPlus90: [0, 0, S, S],
} as const;

/** Metres per unit a file may be written in. */
export const UNIT_SCALE = { m: 1, cm: 100, mm: 1000, in: 1 / 0.0254 } as const;

/** `sketch` as a file authored turned by `turn` and written in `unit` (its root node carries both). */
export async function authoredAs(
  sketch: ModelSketch | Document,
  turn: readonly number[],
  unit: keyof typeof UNIT_SCALE,
): Promise<Uint8Array> {
  const doc = 'doc' in sketch ? sketch.doc : sketch;
  turnAndScale(doc, turn, unit);
  return new NodeIO().writeBinary(doc);
}

/** Puts the scene of `doc` under a root node turned by `turn` and scaled to `unit` (in place). */
export function turnAndScale(doc: Document, turn: readonly number[], unit: keyof typeof UNIT_SCALE): void {
  const s = UNIT_SCALE[unit];
  // a wrapper root, as exporters write their axis and unit conversion
  const wrapper = doc
    .createNode('export_root')
    .setRotation(turn as [number, number, number, number])
    .setScale([s, s, s]);
  const scene = doc.getRoot().listScenes()[0]!;
  for (const child of scene.listChildren()) {
    scene.removeChild(child);
    wrapper.addChild(child);
  }
  scene.addChild(wrapper);
}

/** The example model of `part` (models example), authored turned and in other units. */
export async function exampleAuthoredAs(
  part: Part,
  turn: readonly number[],
  unit: keyof typeof UNIT_SCALE,
): Promise<Uint8Array> {
  return authoredAs(await exampleModel(part), turn, unit);
}
