/**
 * One position-only mesh of every opaque, non-glowing surface of the model, made once per
 * load. It stands in for the build in the two passes that only need its silhouette:
 *
 *   SHADOW_LAYER  the key light's shadow map draws only this layer: one draw instead of one
 *                 per material (~35), every frame
 *   GLOW_LAYER    the bloom mask draws this layer in black (so RGB parts behind other parts
 *                 stay hidden) plus the glowing meshes, which join the layer here: no per-frame
 *                 traversal and material swapping
 *
 * The main camera sees layer 0, where the real meshes are; the floor mirror MIRROR_LAYER.
 * The proxy is welded and simplified (simplifyProxy) to the error of part models' coarse LOD,
 * four pixels at the nearest approach: DEMO-GLASS's 17,686 triangles become 2,155 at 512x512,
 * 2,803 at 720p and 3,605 at 1080p; gallery images moved by mean abs 0.10 (max 0.28), SSIM >= 0.993.
 */
import * as THREE from 'three';
import { MeshoptSimplifier } from 'meshoptimizer/simplifier';

export const SHADOW_LAYER = 1;
export const GLOW_LAYER = 2;
/** what the floor mirror draws: the opaque and glowing meshes (glass and mesh panels would cost a full PBR layer each for a reflection nobody sees) */
export const MIRROR_LAYER = 3;

/** Materials of thin parts left out of the proxy and the mirror (MaterialKit base names). */
const THIN = /^base:(sleeve|sheet):/;

/** Whether a material is one of MaterialKit's glowing RGB materials. */
export function isGlowMaterial(m: THREE.Material): boolean {
  return m.name.startsWith('rgb:') && m.name !== 'rgb:off';
}

/** The mesh the floor mirror draws in place of a part model's mesh: its coarse LOD, same material and place. */
function mirrorStandIn(geometry: THREE.BufferGeometry, material: THREE.Material): THREE.Mesh {
  const m = new THREE.Mesh(geometry, material);
  m.name = 'mirror-lod';
  // the LOD belongs to the model library's template (glb-library.ts disposes it)
  m.userData = { sharedGeometry: true, mirrorStandIn: true };
  m.layers.set(MIRROR_LAYER);
  return m;
}

/**
 * The proxy's triangles welded and simplified to `error` (model units): one vertex per position
 * (a positions-only mesh has no seams to keep), then meshoptimizer down to that error, pruning
 * parts smaller than it. Its two passes draw silhouettes at most at the frame's size (the shadow
 * map) or a quarter of it (the glow mask), and on a CPU rasteriser their vertices are
 * single-threaded work every frame. Null when it saves little or the simplifier is not ready.
 */
export function simplifyProxy(
  position: Float32Array,
  index: Uint16Array | Uint32Array,
  error: number,
): { position: Float32Array; index: Uint32Array } | null {
  if (!(error > 0) || !MeshoptSimplifier.supported) return null;
  const remap = new Uint32Array(position.length / 3);
  const seen = new Map<string, number>();
  const welded: number[] = [];
  for (let v = 0; v < remap.length; v++) {
    const key = `${position[v * 3]},${position[v * 3 + 1]},${position[v * 3 + 2]}`;
    let to = seen.get(key);
    if (to === undefined) {
      to = welded.length / 3;
      seen.set(key, to);
      welded.push(position[v * 3]!, position[v * 3 + 1]!, position[v * 3 + 2]!);
    }
    remap[v] = to;
  }
  const indices = new Uint32Array(index.length);
  for (let i = 0; i < index.length; i++) indices[i] = remap[index[i]!]!;
  const positions = new Float32Array(welded);
  const [lod] = MeshoptSimplifier.simplify(indices, positions, 3, 0, error, ['ErrorAbsolute', 'Prune']);
  if (lod.length === 0 || lod.length > indices.length * 0.9) return null;
  return { position: positions, index: lod };
}

/**
 * Adds the proxy to `model` (so it turns with it), puts glowing meshes on GLOW_LAYER, opaque and
 * glowing ones on MIRROR_LAYER. `error`: what simplifyProxy may remove, in world units (0: none).
 */
export function addProxy(model: THREE.Object3D, error = 0): THREE.Mesh | null {
  model.updateMatrixWorld(true);
  const inverse = new THREE.Matrix4().copy(model.matrixWorld).invert();
  const parts: { geometry: THREE.BufferGeometry; matrix: THREE.Matrix4 }[] = [];
  model.traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh || Array.isArray(mesh.material) || mesh.userData.mirrorStandIn) return;
    const material = mesh.material as THREE.Material;
    if (isGlowMaterial(material)) {
      mesh.layers.enable(GLOW_LAYER);
      mesh.layers.enable(MIRROR_LAYER);
      return;
    }
    if (material.transparent || !mesh.geometry.getAttribute('position')) return;
    // thin, many-triangle things (wire bundles, fan blades) add little to a shadow, an
    // occluder or a reflection, and their vertices are single-threaded work on llvmpipe
    if (THIN.test(material.name)) return;
    // a part model's coarser LOD (models/model-lod.ts) stands in for it in these passes
    const coarse = mesh.userData.coarseGeometry as THREE.BufferGeometry | undefined;
    if (coarse && coarse !== mesh.geometry) mesh.add(mirrorStandIn(coarse, material));
    else mesh.layers.enable(MIRROR_LAYER);
    parts.push({
      geometry: coarse ?? mesh.geometry,
      matrix: new THREE.Matrix4().multiplyMatrices(inverse, mesh.matrixWorld),
    });
  });
  if (parts.length === 0) return null;
  let vertices = 0;
  let indices = 0;
  for (const { geometry } of parts) {
    const n = geometry.getAttribute('position').count;
    vertices += n;
    indices += geometry.index ? geometry.index.count : n;
  }
  const position = new Float32Array(vertices * 3);
  const index = vertices > 65535 ? new Uint32Array(indices) : new Uint16Array(indices);
  const v = new THREE.Vector3();
  let v0 = 0;
  let i0 = 0;
  for (const { geometry, matrix } of parts) {
    const p = geometry.getAttribute('position');
    for (let k = 0; k < p.count; k++) {
      v.fromBufferAttribute(p, k).applyMatrix4(matrix);
      position.set([v.x, v.y, v.z], (v0 + k) * 3);
    }
    const src = geometry.index;
    const n = src ? src.count : p.count;
    for (let k = 0; k < n; k++) index[i0 + k] = v0 + (src ? src.getX(k) : k);
    v0 += p.count;
    i0 += n;
  }
  // the error in the model's units (its world scale is uniform: MM)
  const coarse = simplifyProxy(position, index, error / model.getWorldScale(new THREE.Vector3()).x);
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(coarse?.position ?? position, 3));
  geometry.setIndex(
    new THREE.BufferAttribute(
      coarse ? (coarse.position.length / 3 > 65535 ? coarse.index : new Uint16Array(coarse.index)) : index,
      1,
    ),
  );
  geometry.computeBoundingSphere();
  // black for the glow mask; the shadow pass uses its own depth material (both faces: thin
  // parts like fan blades and sheets cast from either side)
  const proxy = new THREE.Mesh(
    geometry,
    new THREE.MeshBasicMaterial({ color: 0x000000, shadowSide: THREE.DoubleSide }),
  );
  proxy.name = 'proxy';
  proxy.castShadow = true;
  proxy.layers.set(SHADOW_LAYER);
  proxy.layers.enable(GLOW_LAYER);
  model.add(proxy);
  return proxy;
}
