/**
 * Small geometry helpers for the part models (all in millimetres, case coordinates).
 */
import * as THREE from 'three';

export type Vec3 = [number, number, number];

/** Adds a box of size (w, h, d) centred at `at` to `parent`. */
export function box(parent: THREE.Object3D, material: THREE.Material, size: Vec3, at: Vec3, rotation?: Vec3): THREE.Mesh {
  const mesh = new THREE.Mesh(new THREE.BoxGeometry(Math.max(size[0], 0.01), Math.max(size[1], 0.01), Math.max(size[2], 0.01)), material);
  mesh.position.set(...at);
  if (rotation) mesh.rotation.set(...rotation);
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
  const mesh = new THREE.Mesh(new THREE.CylinderGeometry(radius, radius, Math.max(length, 0.01), segments, 1, openEnded), material);
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
export function paintRainbow(geometry: THREE.BufferGeometry, mode: 'x' | 'y' | 'z' | 'angle', phase = 0): THREE.BufferGeometry {
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
    if (!mesh.isMesh || !mesh.geometry) return;
    const g = mesh.geometry;
    const per = g.index ? g.index.count : (g.getAttribute('position')?.count ?? 0);
    const instances = (mesh as THREE.InstancedMesh).isInstancedMesh ? (mesh as THREE.InstancedMesh).count : 1;
    n += Math.floor(per / 3) * instances;
  });
  return n;
}
