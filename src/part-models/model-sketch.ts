/**
 * Model sketches: glTF documents of boxes and empty nodes, built with glTF-Transform in the
 * authoring frame of src/model/part-models.ts (metres, +Y up, front +Z). The example models
 * (example-models.ts: `render-farm models example`), the benchmark's dense textured models and
 * the tests' fixtures are made with it, so none is ever downloaded.
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
  /**
   * metres: subdivided faces get ridges this high (a wave of 8 cells), like fins or vents, so a
   * dense sketch is not flat triangles a simplifier could fold away (benchmarks)
   */
  relief?: number;
}

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  // glTF base colours are linear, CSS hex colours sRGB: convert, as an exporter does
  const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return [linear(((n >> 16) & 255) / 255), linear(((n >> 8) & 255) / 255), linear((n & 255) / 255)];
}

/** Positions and indices of an axis-aligned box with each face split into n x n quads. */
function boxGeometry(
  size: Vec3,
  at: Vec3,
  n: number,
  relief = 0,
): { positions: Float32Array; normals: Float32Array; uvs: Float32Array; indices: Uint32Array } {
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
        const inner = i > 0 && i < n && j > 0 && j < n;
        p[axis] =
          at[axis] +
          sign * (half[axis] + (inner ? relief * Math.sin((Math.PI * i) / 4) * Math.sin((Math.PI * j) / 4) : 0));
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
  return {
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    uvs: new Float32Array(uvs),
    indices: new Uint32Array(indices),
  };
}

/** A document builder: boxes and empty nodes under one root node, one scene (written as a GLB). */
export class ModelSketch {
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
        .setMetallicFactor(0)
        .setRoughnessFactor(0.6)
        // the fixtures' winding is not checked per face: draw both sides
        .setDoubleSided(true);
      if (alpha < 1) m.setAlphaMode('BLEND');
      if (extras) m.setExtras(extras);
      this.materials.set(key, m);
    }
    return m;
  }

  box(spec: BoxSpec, name = 'box'): Node {
    const g = boxGeometry(spec.size, spec.at ?? [0, 0, 0], spec.subdivisions ?? 1, spec.relief ?? 0);
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
    for (let i = 0; i < cells * cells; i++)
      raw.set((i + Math.floor(i / cells)) % 2 ? [230, 40, 150] : [250, 220, 0], i * 3);
    const png = await sharp(raw, { raw: { width: cells, height: cells, channels: 3 } })
      .resize(sizePx, sizePx, { kernel: 'nearest' })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const texture = this.doc.createTexture(`${name}_albedo`).setImage(new Uint8Array(png)).setMimeType('image/png');
    const node = this.box({ ...spec, material: spec.material ?? `${name}_material` }, name);
    const prim = node.getMesh()!.listPrimitives()[0]!;
    const g = boxGeometry(spec.size, spec.at ?? [0, 0, 0], spec.subdivisions ?? 1, spec.relief ?? 0);
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
