/**
 * Collapses a part's many small meshes into one mesh per material. A CPU rasteriser pays per
 * draw call, and a full build is thousands of small pieces (fins, blades, wires); merged it is
 * a few dozen draws. Written out by hand rather than with clone() + mergeGeometries: a build
 * has ~2,000 meshes and the generic path cost most of a stage load.
 */
import * as THREE from 'three';

interface Bucket {
  meshes: THREE.Mesh[];
  cast: boolean;
  receive: boolean;
}

/**
 * Meshes marked with `userData.keep = true` (instanced meshes too) are left as they are. A
 * material with `userData.base` (MaterialKit's coloured variants) is drawn with that base,
 * its colour going into the vertex colours.
 */
export function mergeByMaterial(root: THREE.Object3D): THREE.Group {
  root.updateMatrixWorld(true);
  const inverse = new THREE.Matrix4().copy(root.matrixWorld).invert();
  const buckets = new Map<THREE.Material, Bucket>();
  const kept: THREE.Mesh[] = [];
  root.traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh) return;
    if (
      mesh.userData.keep ||
      Array.isArray(mesh.material) ||
      (mesh as THREE.InstancedMesh).isInstancedMesh ||
      !mesh.geometry.getAttribute('position')
    ) {
      kept.push(mesh);
      return;
    }
    const material = ((mesh.material as THREE.Material).userData.base as THREE.Material | undefined) ?? mesh.material;
    let bucket = buckets.get(material);
    if (!bucket) buckets.set(material, (bucket = { meshes: [], cast: false, receive: false }));
    bucket.meshes.push(mesh);
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
    const mesh = new THREE.Mesh(
      mergeMeshes(bucket.meshes, inverse, (material as THREE.MeshStandardMaterial).vertexColors === true),
      material,
    );
    mesh.castShadow = bucket.cast;
    mesh.receiveShadow = bucket.receive;
    out.add(mesh);
  }
  for (const mesh of kept) {
    const m = new THREE.Matrix4().multiplyMatrices(inverse, mesh.matrixWorld);
    mesh.removeFromParent();
    m.decompose(mesh.position, mesh.quaternion, mesh.scale);
    out.add(mesh);
  }
  return out;
}

/**
 * One geometry from many meshes, in `inverse` x world space: positions and normals
 * transformed, uvs copied (zeros where a piece has none), vertex colours (when the material
 * uses them) from each piece's variant tint or its own colours (RGB rainbows), indices offset
 * (generated for non-indexed pieces).
 */
function mergeMeshes(meshes: THREE.Mesh[], inverse: THREE.Matrix4, withColor: boolean): THREE.BufferGeometry {
  let vertices = 0;
  let indices = 0;
  for (const m of meshes) {
    const g = m.geometry;
    const n = g.getAttribute('position').count;
    vertices += n;
    indices += g.index ? g.index.count : n;
  }
  const position = new Float32Array(vertices * 3);
  const normal = new Float32Array(vertices * 3);
  const uv = new Float32Array(vertices * 2);
  const color = withColor ? new Float32Array(vertices * 3) : null;
  const index = vertices > 65535 ? new Uint32Array(indices) : new Uint16Array(indices);
  const matrix = new THREE.Matrix4();
  const normalMatrix = new THREE.Matrix3();
  const e = matrix.elements;
  const ne = normalMatrix.elements;
  let v0 = 0;
  let i0 = 0;
  for (const m of meshes) {
    const g = m.geometry;
    matrix.multiplyMatrices(inverse, m.matrixWorld);
    normalMatrix.getNormalMatrix(matrix);
    // a mirroring transform flips the triangles' winding: undo it so faces stay front-facing
    const flip = matrix.determinant() < 0;
    const p = g.getAttribute('position');
    const nAttr = g.getAttribute('normal');
    const uAttr = g.getAttribute('uv');
    const cAttr = g.getAttribute('color');
    const tint = (m.material as THREE.Material).userData.tint as THREE.Color | undefined;
    const count = p.count;
    for (let k = 0; k < count; k++) {
      const x = p.getX(k);
      const y = p.getY(k);
      const z = p.getZ(k);
      const o = (v0 + k) * 3;
      position[o] = e[0]! * x + e[4]! * y + e[8]! * z + e[12]!;
      position[o + 1] = e[1]! * x + e[5]! * y + e[9]! * z + e[13]!;
      position[o + 2] = e[2]! * x + e[6]! * y + e[10]! * z + e[14]!;
      if (nAttr) {
        const a = nAttr.getX(k);
        const b = nAttr.getY(k);
        const c = nAttr.getZ(k);
        let nx = ne[0]! * a + ne[3]! * b + ne[6]! * c;
        let ny = ne[1]! * a + ne[4]! * b + ne[7]! * c;
        let nz = ne[2]! * a + ne[5]! * b + ne[8]! * c;
        const l = Math.hypot(nx, ny, nz) || 1;
        nx /= l;
        ny /= l;
        nz /= l;
        normal[o] = nx;
        normal[o + 1] = ny;
        normal[o + 2] = nz;
      }
      if (uAttr) {
        uv[(v0 + k) * 2] = uAttr.getX(k);
        uv[(v0 + k) * 2 + 1] = uAttr.getY(k);
      }
      if (color) {
        color[o] = tint ? tint.r : cAttr ? cAttr.getX(k) : 1;
        color[o + 1] = tint ? tint.g : cAttr ? cAttr.getY(k) : 1;
        color[o + 2] = tint ? tint.b : cAttr ? cAttr.getZ(k) : 1;
      }
    }
    const src = g.index;
    const n = src ? src.count : count;
    for (let k = 0; k < n; k += 3) {
      const a = src ? src.getX(k) : k;
      const b = src ? src.getX(k + 1) : k + 1;
      const c = src ? src.getX(k + 2) : k + 2;
      index[i0 + k] = v0 + a;
      index[i0 + k + 1] = v0 + (flip ? c : b);
      index[i0 + k + 2] = v0 + (flip ? b : c);
    }
    v0 += count;
    i0 += n;
  }
  const out = new THREE.BufferGeometry();
  out.setAttribute('position', new THREE.BufferAttribute(position, 3));
  out.setAttribute('normal', new THREE.BufferAttribute(normal, 3));
  out.setAttribute('uv', new THREE.BufferAttribute(uv, 2));
  if (color) out.setAttribute('color', new THREE.BufferAttribute(color, 3));
  out.setIndex(new THREE.BufferAttribute(index, 1));
  out.computeBoundingBox();
  out.computeBoundingSphere();
  return out;
}
