/**
 * Collapses a part's many small meshes into one mesh per material. A CPU rasteriser pays per
 * draw call, and a full build is several hundred boxes; merged it is a few dozen draws.
 */
import * as THREE from 'three';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';

/** Meshes marked with `userData.keep = true` (glass, instanced meshes) are left as they are. */
export function mergeByMaterial(root: THREE.Object3D): THREE.Group {
  root.updateMatrixWorld(true);
  const inverse = new THREE.Matrix4().copy(root.matrixWorld).invert();
  const buckets = new Map<THREE.Material, { geometries: THREE.BufferGeometry[]; cast: boolean; receive: boolean }>();
  const kept: THREE.Object3D[] = [];
  root.traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh) return;
    if (mesh.userData.keep || Array.isArray(mesh.material) || (mesh as THREE.InstancedMesh).isInstancedMesh) {
      kept.push(mesh);
      return;
    }
    const g = mesh.geometry.clone();
    g.applyMatrix4(new THREE.Matrix4().multiplyMatrices(inverse, mesh.matrixWorld));
    let bucket = buckets.get(mesh.material);
    if (!bucket) buckets.set(mesh.material, (bucket = { geometries: [], cast: false, receive: false }));
    bucket.geometries.push(g);
    bucket.cast ||= mesh.castShadow;
    bucket.receive ||= mesh.receiveShadow;
  });
  const out = new THREE.Group();
  out.name = root.name;
  out.userData = { ...root.userData };
  out.position.copy(root.position);
  out.quaternion.copy(root.quaternion);
  out.scale.copy(root.scale);
  for (const [material, bucket] of buckets) {
    const merged = mergeCompatible(bucket.geometries);
    const mesh = new THREE.Mesh(merged, material);
    mesh.castShadow = bucket.cast;
    mesh.receiveShadow = bucket.receive;
    out.add(mesh);
  }
  for (const mesh of kept) {
    const clone = mesh as THREE.Mesh;
    const m = new THREE.Matrix4().multiplyMatrices(inverse, clone.matrixWorld);
    clone.removeFromParent();
    m.decompose(clone.position, clone.quaternion, clone.scale);
    out.add(clone);
  }
  for (const g of [...buckets.values()].flatMap((b) => b.geometries)) g.dispose();
  return out;
}

/** mergeGeometries needs identical attribute sets and all-or-none indices: make them so. */
function mergeCompatible(geometries: THREE.BufferGeometry[]): THREE.BufferGeometry {
  const names = Object.keys(geometries[0]!.attributes).filter((n) => geometries.every((g) => g.getAttribute(n)));
  for (const g of geometries) {
    for (const n of Object.keys(g.attributes)) if (!names.includes(n)) g.deleteAttribute(n);
    g.morphAttributes = {};
    if (!g.index) {
      const count = g.getAttribute('position').count;
      const idx = new Uint32Array(count);
      for (let i = 0; i < count; i++) idx[i] = i;
      g.setIndex(new THREE.BufferAttribute(idx, 1));
    }
  }
  return mergeGeometries(geometries, false) ?? geometries[0]!;
}
