/**
 * GLB fixtures made in the tests with glTF-Transform (never downloaded): boxes in the authoring
 * frame of src/model/part-models.ts (metres, +Y up, front +Z), a distinctive GPU, a case with
 * anchors and a glass side, an RGB-tagged fan, a textured part, a dense mesh for the triangle
 * budget, and broken files. Each returns GLB bytes (or .gltf JSON + files) ready to write.
 */
import { Document, NodeIO, type Material, type Node } from '@gltf-transform/core';
import sharp from 'sharp';

export type Vec3 = [number, number, number];

export interface BoxSpec {
  /** metres */
  size: Vec3;
  /** centre, metres */
  at?: Vec3;
  /** #rrggbb */
  color?: string;
  material?: string;
  /** material extras, e.g. { rgb: true } */
  extras?: Record<string, unknown>;
  /** alpha < 1 makes a BLEND material (glass) */
  alpha?: number;
  /** subdivisions per face side (triangles = 12 * n * n) */
  subdivisions?: number;
}

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  // glTF base colours are linear; the fixtures only need distinct, saturated values
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

/** Positions and indices of an axis-aligned box with each face split into n x n quads. */
function boxGeometry(size: Vec3, at: Vec3, n: number): { positions: Float32Array; normals: Float32Array; uvs: Float32Array; indices: Uint32Array } {
  const positions: number[] = [];
  const normals: number[] = [];
  const uvs: number[] = [];
  const indices: number[] = [];
  const half = size.map((s) => s / 2) as Vec3;
  // each face: normal axis, sign, and the two in-plane axes (u x v = normal)
  const faces: [number, 1 | -1, number, number][] = [
    [0, 1, 1, 2],
    [0, -1, 2, 1],
    [1, 1, 2, 0],
    [1, -1, 0, 2],
    [2, 1, 0, 1],
    [2, -1, 1, 0],
  ];
  for (const [axis, sign, u, v] of faces) {
    const base = positions.length / 3;
    for (let i = 0; i <= n; i++) {
      for (let j = 0; j <= n; j++) {
        const p: Vec3 = [0, 0, 0];
        p[axis] = at[axis] + sign * half[axis];
        p[u] = at[u] + (i / n - 0.5) * size[u] * sign;
        p[v] = at[v] + (j / n - 0.5) * size[v];
        positions.push(...p);
        const nn: Vec3 = [0, 0, 0];
        nn[axis] = sign;
        normals.push(...nn);
        uvs.push(i / n, j / n);
      }
    }
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const a = base + i * (n + 1) + j;
        const b = a + n + 1;
        indices.push(a, b, a + 1, a + 1, b, b + 1);
      }
    }
  }
  return { positions: new Float32Array(positions), normals: new Float32Array(normals), uvs: new Float32Array(uvs), indices: new Uint32Array(indices) };
}

/** A document builder: boxes and empty nodes under one root node, one scene. */
export class FixtureDoc {
  readonly doc = new Document();
  readonly root: Node;
  private readonly buffer = this.doc.createBuffer();
  private readonly materials = new Map<string, Material>();

  constructor(name = 'model') {
    this.root = this.doc.createNode(name);
    this.doc.createScene('scene').addChild(this.root);
  }

  material(name: string, color: string, extras?: Record<string, unknown>, alpha = 1): Material {
    const key = `${name}|${color}|${alpha}|${JSON.stringify(extras ?? {})}`;
    let m = this.materials.get(key);
    if (!m) {
      m = this.doc
        .createMaterial(name)
        .setBaseColorFactor([...rgb(color), alpha])
        .setMetallicFactor(0.2)
        .setRoughnessFactor(0.5)
        // the fixtures' winding is not checked per face: draw both sides
        .setDoubleSided(true);
      if (alpha < 1) m.setAlphaMode('BLEND');
      if (extras) m.setExtras(extras);
      this.materials.set(key, m);
    }
    return m;
  }

  box(spec: BoxSpec, name = 'box'): Node {
    const g = boxGeometry(spec.size, spec.at ?? [0, 0, 0], spec.subdivisions ?? 1);
    const b = this.buffer;
    const prim = this.doc
      .createPrimitive()
      .setAttribute('POSITION', this.doc.createAccessor().setType('VEC3').setArray(g.positions).setBuffer(b))
      .setAttribute('NORMAL', this.doc.createAccessor().setType('VEC3').setArray(g.normals).setBuffer(b))
      .setIndices(this.doc.createAccessor().setType('SCALAR').setArray(g.indices).setBuffer(b))
      .setMaterial(this.material(spec.material ?? 'paint', spec.color ?? '#808080', spec.extras, spec.alpha ?? 1));
    const node = this.doc.createNode(name).setMesh(this.doc.createMesh(name).addPrimitive(prim));
    this.root.addChild(node);
    return node;
  }

  /**
   * A box whose material has a `sizePx` x `sizePx` PNG base-colour texture made with sharp: an
   * 8 x 8 checker of two colours scaled up (not one colour: prune would fold a solid texture
   * into the material's factor).
   */
  async texturedBox(sizePx: number, spec: BoxSpec, name = 'textured'): Promise<Node> {
    const cells = 8;
    const raw = Buffer.alloc(cells * cells * 3);
    for (let i = 0; i < cells * cells; i++) raw.set((i + Math.floor(i / cells)) % 2 ? [230, 40, 150] : [250, 220, 0], i * 3);
    const png = await sharp(raw, { raw: { width: cells, height: cells, channels: 3 } })
      .resize(sizePx, sizePx, { kernel: 'nearest' })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const texture = this.doc.createTexture(`${name}_albedo`).setImage(new Uint8Array(png)).setMimeType('image/png');
    const node = this.box({ ...spec, material: spec.material ?? `${name}_material` }, name);
    const prim = node.getMesh()!.listPrimitives()[0]!;
    const g = boxGeometry(spec.size, spec.at ?? [0, 0, 0], spec.subdivisions ?? 1);
    prim.setAttribute('TEXCOORD_0', this.doc.createAccessor().setType('VEC2').setArray(g.uvs).setBuffer(this.buffer));
    // a material of its own: the shared one of box() may be used without a texture elsewhere
    prim.setMaterial(prim.getMaterial()!.clone().setBaseColorTexture(texture));
    return node;
  }

  /** An empty node (an anchor) at `at`, metres. */
  empty(name: string, at: Vec3): Node {
    const node = this.doc.createNode(name).setTranslation(at);
    this.root.addChild(node);
    return node;
  }

  glb(): Promise<Uint8Array> {
    return new NodeIO().writeBinary(this.doc);
  }
}

/**
 * A GPU nobody could mistake for the procedural card: a magenta shroud with a yellow stripe along
 * its window edge, sized as the catalog card (`lengthMm`, `slotWidth`) in the authoring frame.
 */
export function distinctiveGpu(lengthMm = 300, slotWidth = 2.5, subdivisions = 1): FixtureDoc {
  const f = new FixtureDoc('gpu');
  const L = lengthMm / 1000;
  const T = (slotWidth * 20.32) / 1000;
  f.box({ size: [0.126, T, L], color: '#e0109a', material: 'shroud', subdivisions }, 'shroud');
  f.box({ size: [0.01, T * 0.4, L * 0.9], at: [-0.068, 0, 0], color: '#ffe000', material: 'stripe', subdivisions }, 'stripe');
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
  const body = { color: '#2a6f3a', material: 'steel' };
  f.box({ ...body, size: [W, t, D], at: [0, t / 2, 0] }, 'floor');
  f.box({ ...body, size: [W, t, D], at: [0, H - t / 2, 0] }, 'roof');
  f.box({ ...body, size: [W, H, t], at: [0, H / 2, -D / 2 + t / 2] }, 'rear');
  f.box({ ...body, size: [W, H, t], at: [0, H / 2, D / 2 - t / 2] }, 'front');
  f.box({ ...body, size: [t, H, D], at: [W / 2 - t / 2, H / 2, 0] }, 'right');
  f.box({ size: [t / 2, H * 0.95, D * 0.95], at: [-W / 2 + t / 2, H / 2, 0], color: '#b0c4d0', material: 'glass', alpha: 0.25 }, 'window');
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
  await f.texturedBox(textureSizePx, { size: [0.126, (slotWidth * 20.32) / 1000, lengthMm / 1000], color: '#ffffff', material: 'shroud' }, 'shroud');
  return f;
}

/** A box of about `triangles` triangles (for the triangle budget), `size` metres. */
export function denseBox(triangles: number, size: Vec3): FixtureDoc {
  const f = new FixtureDoc('dense');
  f.box({ size, subdivisions: Math.max(1, Math.round(Math.sqrt(triangles / 12))), color: '#4060a0' }, 'dense');
  return f;
}

/** A .gltf (JSON) whose buffer is an external file `name.bin`: refused unless the file comes with it. */
export async function gltfWithExternalBuffer(size: Vec3 = [0.126, 0.05, 0.3]): Promise<{ json: string; files: Record<string, Uint8Array> }> {
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
