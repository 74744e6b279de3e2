/**
 * GLB fixtures made in the tests (never downloaded): a distinctive GPU, a case with anchors and
 * a glass side, an RGB-tagged fan, a textured part, a dense mesh for the triangle budget, and
 * broken files. They are sketches (src/part-models/model-sketch.ts) in the authoring frame of
 * src/model/part-models.ts; each returns GLB bytes (or .gltf JSON + files) ready to write.
 */
import { NodeIO } from '@gltf-transform/core';
import { ModelSketch as FixtureDoc, type Vec3 } from '../../src/part-models/model-sketch.js';

export { FixtureDoc, type Vec3 };

/**
 * A GPU nobody could mistake for the procedural card: a magenta shroud with a yellow stripe along
 * its window edge, sized as the catalog card (`lengthMm`, `slotWidth`) in the authoring frame.
 */
export function distinctiveGpu(lengthMm = 300, slotWidth = 2.5, subdivisions = 1): FixtureDoc {
  const f = new FixtureDoc('gpu');
  const L = lengthMm / 1000;
  const T = (slotWidth * 20.32) / 1000;
  f.box({ size: [0.126, T, L], color: '#e0109a', material: 'shroud', subdivisions }, 'shroud');
  f.box(
    { size: [0.01, T * 0.4, L * 0.9], at: [-0.068, 0, 0], color: '#ffe000', material: 'stripe', subdivisions },
    'stripe',
  );
  return f;
}

/**
 * A case shell (`widthMm x heightMm x depthMm`): floor, roof, rear, front and the solid right
 * panel in dark grey, a glass left (window, -X) panel, and the anchors of part-models.ts.
 */
export function caseWithAnchors(widthMm = 230, heightMm = 480, depthMm = 450): FixtureDoc {
  const f = new FixtureDoc('case');
  const [W, H, D] = [widthMm / 1000, heightMm / 1000, depthMm / 1000];
  const t = 0.006;
  caseWalls(f, W, H, D, t);
  f.box(
    {
      size: [t / 2, H * 0.95, D * 0.95],
      at: [-W / 2 + t / 2, H / 2, 0],
      color: '#b0c4d0',
      material: 'glass',
      alpha: 0.25,
    },
    'window',
  );
  f.empty('anchor_motherboard_tray', [W / 2 - 0.03, H - 0.03, -D / 2 + 0.02]);
  f.empty('anchor_psu_bay', [0, 0.05, -D / 2 + 0.1]);
  f.empty('anchor_fan_front_1', [0, H * 0.7, D / 2 - 0.03]);
  f.empty('anchor_fan_front_2', [0, H * 0.4, D / 2 - 0.03]);
  f.empty('anchor_fan_rear_1', [0, H * 0.75, -D / 2 + 0.03]);
  return f;
}

/** A fan (`sizeMm`, 25 mm deep, blowing along +Z) with a dark frame and an RGB-tagged ring. */
export function rgbFan(sizeMm = 120, tag: 'name' | 'extras' = 'name'): FixtureDoc {
  const f = new FixtureDoc('fan');
  const s = sizeMm / 1000;
  f.box({ size: [s, s, 0.025], color: '#151515', material: 'frame' }, 'frame');
  const ring = tag === 'name' ? { material: 'RGB_ring' } : { material: 'ring', extras: { rgb: true } };
  f.box({ ...ring, size: [s * 0.8, s * 0.8, 0.004], at: [0, 0, 0.0135], color: '#ffffff' }, 'ring');
  return f;
}

/** A GPU (as distinctiveGpu's shroud) whose shroud carries a `textureSizePx`-square PNG texture. */
export async function texturedGpu(textureSizePx: number, lengthMm = 300, slotWidth = 2.5): Promise<FixtureDoc> {
  const f = new FixtureDoc('gpu');
  await f.texturedBox(
    textureSizePx,
    { size: [0.126, (slotWidth * 20.32) / 1000, lengthMm / 1000], color: '#ffffff', material: 'shroud' },
    'shroud',
  );
  return f;
}

/** A box of about `triangles` triangles (for the triangle budget), `size` metres. */
export function denseBox(triangles: number, size: Vec3): FixtureDoc {
  const f = new FixtureDoc('dense');
  f.box({ size, subdivisions: Math.max(1, Math.round(Math.sqrt(triangles / 12))), color: '#4060a0' }, 'dense');
  return f;
}

/** A .gltf (JSON) whose buffer is an external file `name.bin`: refused unless the file comes with it. */
export async function gltfWithExternalBuffer(
  size: Vec3 = [0.126, 0.05, 0.3],
): Promise<{ json: string; files: Record<string, Uint8Array> }> {
  const f = new FixtureDoc('external');
  f.box({ size, color: '#c04040' });
  const io = new NodeIO();
  const { json, resources } = await io.writeJSON(f.doc, { basename: 'part' });
  return { json: JSON.stringify(json), files: resources };
}

/** Bytes that are not glTF at all. */
export function notGltf(): Uint8Array {
  return new TextEncoder().encode('solid cube\n  facet normal 0 0 1\nendsolid cube\n');
}

/**
 * The steel walls of a case `W x H x D` m, `t` thick, in `f`: floor, roof, rear, front and the
 * right (+X) side; the left (-X) side too unless `left` is false (a window goes there instead).
 */
export function caseWalls(f: FixtureDoc, W: number, H: number, D: number, t: number, left = false): void {
  const body = { color: '#2a6f3a', material: 'steel' };
  f.box({ ...body, size: [W, t, D], at: [0, t / 2, 0] }, 'floor');
  f.box({ ...body, size: [W, t, D], at: [0, H - t / 2, 0] }, 'roof');
  f.box({ ...body, size: [W, H, t], at: [0, H / 2, -D / 2 + t / 2] }, 'rear');
  f.box({ ...body, size: [W, H, t], at: [0, H / 2, D / 2 - t / 2] }, 'front');
  f.box({ ...body, size: [t, H, D], at: [W / 2 - t / 2, H / 2, 0] }, 'right');
  if (left) f.box({ ...body, size: [t, H, D], at: [-W / 2 + t / 2, H / 2, 0] }, 'left');
}
