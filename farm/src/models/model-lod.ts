/**
 * Screen-space level of detail for part models. An artist's model may carry far more triangles
 * than a frame can show (a 50k-triangle GPU covers ~30k pixels of a 720p frame), and on a CPU
 * rasteriser every triangle costs in every pass (shadow, mirror, glow mask, main). Before the
 * scene is drawn, each model mesh is simplified (meshoptimizer, positions only, seams kept) down
 * to a geometric error of one pixel at the nearest distance the turntable brings it to the
 * camera: what is removed is below what the frame can show at that size. The error is snapped to powers of
 * two, so a sprite size and a video size each have one LOD per geometry, cached on the parsed
 * template (glb-library.ts disposes them with it) and shared by every load and chunk of that
 * size. Deterministic: the same model, options and frame size give the same triangles.
 */
import * as THREE from 'three';
import { MeshoptSimplifier } from 'meshoptimizer/simplifier';

/** The error allowed, in pixels at the nearest approach: a pixel, the usual screen-space bound (FXAA blends edges by about that much). */
export const LOD_ERROR_PX = 1;

/**
 * The passes that draw silhouettes or a blurred, half-size picture (the shadow map, the glow
 * mask, the floor mirror) take a LOD this many times coarser.
 */
export const COARSE_FACTOR = 4;

/** A simplification that keeps more than this share of the triangles is not worth an index buffer. */
const KEEP_IF_ABOVE = 0.9;

/** Waits for the simplifier's WebAssembly (once per page). */
export function lodReady(): Promise<void> {
  return MeshoptSimplifier.ready;
}

/** World-space size of one pixel at `distance` from `camera`, for a frame `height` pixels tall. */
export function pixelSizeAt(camera: THREE.PerspectiveCamera, distance: number, height: number): number {
  return (2 * distance * Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2)) / camera.zoom / height;
}

/** The LODs made of a template geometry, by snapped error (geometry.userData.lods). */
function lodsOf(geometry: THREE.BufferGeometry): Map<number, THREE.BufferGeometry> {
  let lods = geometry.userData.lods as Map<number, THREE.BufferGeometry> | undefined;
  if (!lods) {
    lods = new Map();
    geometry.userData.lods = lods;
  }
  return lods;
}

/** Disposes the LODs made of `geometry` (called when its template leaves the library). */
export function disposeLods(geometry: THREE.BufferGeometry): void {
  const lods = geometry.userData.lods as Map<number, THREE.BufferGeometry> | undefined;
  for (const lod of lods?.values() ?? []) if (lod !== geometry) lod.dispose();
  lods?.clear();
}

/** `geometry` simplified to an absolute error of `error` (its own units), or itself when that saves little. */
function simplified(geometry: THREE.BufferGeometry, error: number): THREE.BufferGeometry {
  const position = geometry.getAttribute('position');
  if (!position || position.count < 3) return geometry;
  // float positions, whatever the stored type (KHR_mesh_quantization stores int16, normalised)
  const positions = new Float32Array(position.count * 3);
  for (let i = 0; i < position.count; i++) {
    positions[i * 3] = position.getX(i);
    positions[i * 3 + 1] = position.getY(i);
    positions[i * 3 + 2] = position.getZ(i);
  }
  const source = geometry.index;
  const indices = new Uint32Array(source ? source.count : position.count);
  for (let i = 0; i < indices.length; i++) indices[i] = source ? source.getX(i) : i;
  if (indices.length < 3 || indices.length % 3 !== 0) return geometry;
  const [lod] = MeshoptSimplifier.simplify(indices, positions, 3, 0, error, ['ErrorAbsolute']);
  if (lod.length === 0 || lod.length > indices.length * KEEP_IF_ABOVE) return geometry;
  // the same vertices (normals, UVs, seams), fewer triangles: only the index is new
  const out = new THREE.BufferGeometry();
  for (const [name, attribute] of Object.entries(geometry.attributes)) out.setAttribute(name, attribute);
  out.setIndex(new THREE.BufferAttribute(position.count > 65535 ? lod : new Uint16Array(lod), 1));
  out.groups = [];
  out.boundingBox = geometry.boundingBox;
  out.boundingSphere = geometry.boundingSphere;
  return out;
}

/**
 * Swaps every part-model mesh under `root` (`userData.partModel`, model-placement.ts) for its
 * LOD at a world-space error of `worldError`, and gives it `userData.coarseGeometry`, its LOD at
 * COARSE_FACTOR times that (what proxies.ts draws in the shadow, glow and mirror passes).
 * Returns the triangles before and after (main LOD).
 */
export function applyModelLods(root: THREE.Object3D, worldError: number): { before: number; after: number } {
  const totals = { before: 0, after: 0 };
  if (!(worldError > 0) || !MeshoptSimplifier.supported) return totals;
  // snapped to a power of two: one LOD per geometry and frame size, never one per load
  const snapped = 2 ** Math.floor(Math.log2(worldError));
  root.updateMatrixWorld(true);
  const scale = new THREE.Vector3();
  root.traverse((o) => {
    const mesh = o as THREE.Mesh;
    // RGB meshes painted with the rainbow own a copy of their geometry: small, left as they are
    if (!mesh.isMesh || !mesh.userData.partModel || mesh.userData.sharedGeometry === false) return;
    const geometry = mesh.geometry;
    const triangles = (geometry.index?.count ?? geometry.getAttribute('position')?.count ?? 0) / 3;
    totals.before += triangles;
    // the error in the mesh's own units (models are in metres, scaled into the build's frame)
    scale.setFromMatrixScale(mesh.matrixWorld);
    const local = snapped / Math.max(scale.x, scale.y, scale.z);
    const lods = lodsOf(geometry);
    const lodAt = (error: number): THREE.BufferGeometry => {
      let lod = lods.get(error);
      if (!lod) {
        lod = simplified(geometry, error);
        lods.set(error, lod);
      }
      return lod;
    };
    const lod = lodAt(local);
    mesh.geometry = lod;
    mesh.userData.coarseGeometry = lodAt(local * COARSE_FACTOR);
    totals.after += (lod.index?.count ?? triangles * 3) / 3;
  });
  return totals;
}
