/**
 * Small geometry helpers for the part models (all in millimetres, case coordinates).
 */
import * as THREE from 'three';
import { RoundedBoxGeometry } from 'three/examples/jsm/geometries/RoundedBoxGeometry.js';

export type Vec3 = [number, number, number];

/** Millimetres per texture tile: every surface texture (brushed, grain) repeats at this size. */
export const UV_PERIOD = 100;

/**
 * Box-projected UVs in millimetres / UV_PERIOD: each vertex takes the two coordinates across
 * its normal's dominant axis, so textures keep one density on every face of every size.
 */
export function planarUv(geometry: THREE.BufferGeometry, period = UV_PERIOD): THREE.BufferGeometry {
  const pos = geometry.getAttribute('position');
  const normal = geometry.getAttribute('normal');
  if (!pos || !normal) return geometry;
  const uv = new Float32Array(pos.count * 2);
  for (let i = 0; i < pos.count; i++) {
    const nx = Math.abs(normal.getX(i));
    const ny = Math.abs(normal.getY(i));
    const nz = Math.abs(normal.getZ(i));
    const [a, b] =
      nx >= ny && nx >= nz
        ? [pos.getZ(i), pos.getY(i)]
        : ny >= nz
          ? [pos.getX(i), pos.getZ(i)]
          : [pos.getX(i), pos.getY(i)];
    uv[i * 2] = a / period;
    uv[i * 2 + 1] = b / period;
  }
  geometry.setAttribute('uv', new THREE.BufferAttribute(uv, 2));
  return geometry;
}

/** Adds a box of size (w, h, d) centred at `at` to `parent`. */
export function box(
  parent: THREE.Object3D,
  material: THREE.Material,
  size: Vec3,
  at: Vec3,
  rotation?: Vec3,
): THREE.Mesh {
  const mesh = new THREE.Mesh(
    planarUv(new THREE.BoxGeometry(Math.max(size[0], 0.01), Math.max(size[1], 0.01), Math.max(size[2], 0.01))),
    material,
  );
  mesh.position.set(...at);
  if (rotation) mesh.rotation.set(...rotation);
  parent.add(mesh);
  return mesh;
}

const roundedCache = new Map<string, THREE.BufferGeometry>();

/**
 * A box with rounded edges and corners (radius clamped to the smallest half-size). Cached by
 * size: cases, shrouds and covers reuse a handful of shapes.
 */
export function roundedBox(
  parent: THREE.Object3D,
  material: THREE.Material,
  size: Vec3,
  at: Vec3,
  radius: number,
  segments = 2,
): THREE.Mesh {
  const [w, h, d] = size.map((v) => Math.max(v, 0.02)) as Vec3;
  const r = Math.max(0.01, Math.min(radius, w / 2 - 0.005, h / 2 - 0.005, d / 2 - 0.005));
  const key = [w, h, d, r, segments].map((v) => v.toFixed(2)).join(':');
  let g = roundedCache.get(key);
  if (!g) {
    g = planarUv(new RoundedBoxGeometry(w, h, d, segments, r));
    if (roundedCache.size > 512) roundedCache.clear();
    roundedCache.set(key, g);
  }
  const mesh = new THREE.Mesh(g, material);
  mesh.position.set(...at);
  parent.add(mesh);
  return mesh;
}

/**
 * A tube along a smooth curve through `points` (cables, coolant tubes, heat pipes), with its
 * UVs scaled so a sleeve texture keeps its weave size: u every `pitch` mm along the length.
 */
export function tube(
  parent: THREE.Object3D,
  material: THREE.Material,
  points: THREE.Vector3[],
  radius: number,
  o: { segments?: number; radial?: number; pitch?: number; tension?: number } = {},
): THREE.Mesh {
  const curve = new THREE.CatmullRomCurve3(points, false, 'catmullrom', o.tension ?? 0.5);
  const g = new THREE.TubeGeometry(
    curve,
    o.segments ?? Math.max(8, Math.ceil(curve.getLength() / 12)),
    radius,
    o.radial ?? 8,
    false,
  );
  const uv = g.getAttribute('uv') as THREE.BufferAttribute;
  const along = curve.getLength() / (o.pitch ?? 8);
  for (let i = 0; i < uv.count; i++) uv.setXY(i, uv.getX(i) * along, uv.getY(i));
  const mesh = new THREE.Mesh(g, material);
  parent.add(mesh);
  return mesh;
}

/** Adds a cylinder whose axis is `axis` ('x' | 'y' | 'z'). */
export function cylinder(
  parent: THREE.Object3D,
  material: THREE.Material,
  radius: number,
  length: number,
  at: Vec3,
  axis: 'x' | 'y' | 'z' = 'y',
  segments = 16,
  openEnded = false,
): THREE.Mesh {
  const mesh = new THREE.Mesh(
    new THREE.CylinderGeometry(radius, radius, Math.max(length, 0.01), segments, 1, openEnded),
    material,
  );
  mesh.position.set(...at);
  if (axis === 'x') mesh.rotation.z = Math.PI / 2;
  if (axis === 'z') mesh.rotation.x = Math.PI / 2;
  parent.add(mesh);
  return mesh;
}

/**
 * Gives geometry a rainbow `color` attribute along one axis (or around the Z axis for rings),
 * the default look of RGB parts; MaterialKit.rgb() ignores it when the build sets a colour.
 */
export function paintRainbow(
  geometry: THREE.BufferGeometry,
  mode: 'x' | 'y' | 'z' | 'angle',
  phase = 0,
): THREE.BufferGeometry {
  const pos = geometry.getAttribute('position') as THREE.BufferAttribute;
  geometry.computeBoundingBox();
  const bb = geometry.boundingBox!;
  const colors = new Float32Array(pos.count * 3);
  const c = new THREE.Color();
  for (let i = 0; i < pos.count; i++) {
    let t: number;
    // 'angle' goes round the Z axis (rings are built in the XY plane)
    if (mode === 'angle') t = (Math.atan2(pos.getY(i), pos.getX(i)) / (2 * Math.PI) + 1) % 1;
    else {
      const k = mode === 'x' ? 0 : mode === 'y' ? 1 : 2;
      const lo = bb.min.getComponent(k);
      const span = bb.max.getComponent(k) - lo || 1;
      t = ((mode === 'x' ? pos.getX(i) : mode === 'y' ? pos.getY(i) : pos.getZ(i)) - lo) / span;
    }
    // a closed ring wraps the full hue circle; a strip stops short of red-to-red
    c.setHSL(((mode === 'angle' ? t : t * 0.85) + phase) % 1, 0.95, 0.55);
    colors[i * 3] = c.r;
    colors[i * 3 + 1] = c.g;
    colors[i * 3 + 2] = c.b;
  }
  geometry.setAttribute('color', new THREE.BufferAttribute(colors, 3));
  return geometry;
}

/** Triangles drawn by an object tree (indexed or not). */
export function countTriangles(root: THREE.Object3D): number {
  let n = 0;
  root.traverse((o) => {
    const mesh = o as THREE.Mesh;
    // a part model's coarse LOD for the floor mirror repeats a mesh, as the proxy does
    if (!mesh.isMesh || !mesh.geometry || mesh.userData.mirrorStandIn) return;
    const g = mesh.geometry;
    const per = g.index ? g.index.count : (g.getAttribute('position')?.count ?? 0);
    const instances = (mesh as THREE.InstancedMesh).isInstancedMesh ? (mesh as THREE.InstancedMesh).count : 1;
    n += Math.floor(per / 3) * instances;
  });
  return n;
}
