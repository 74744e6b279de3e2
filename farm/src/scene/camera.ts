/**
 * The camera: fixed, slightly above the build, looking at it; the build turns under it.
 * It always frames the whole build at every turn angle: the distance is solved so that the
 * cylinder the build sweeps while turning fits the frame for the aspect ratio, then scaled
 * by cameraZoom (>1 = farther; <1 closer, but never so close that one panel fills the
 * frame). cameraOffsetX shifts the build sideways by that fraction of the frame width
 * (positive = right) with a view offset, so perspective stays centred on it.
 */
import * as THREE from 'three';

export const FOV = 30;
const ELEVATION = (11 * Math.PI) / 180;
/** empty border kept around the build, as a fraction of the half-frame */
const MARGIN = 0.08;
/**
 * How much closer cameraZoom < 1 may bring the build: at 0.5 the swept cylinder is framed
 * this much larger than at 1.0. Not 2x: the cylinder bounds the build at every angle, so
 * keeping its outline near the frame edge keeps the build's edges, and background beyond
 * them, in view at every angle; a 2x close-up filled the frame with one panel.
 */
const MAX_CLOSE_UP = 1.3;

export interface Sweep {
  /** radius of the turning build around the y axis, and its height range (metres) */
  radius: number;
  minY: number;
  maxY: number;
}

/** The cylinder a group sweeps while turning about the y axis through the origin. */
export function sweepOf(object: THREE.Object3D): Sweep {
  const box = new THREE.Box3().setFromObject(object);
  if (box.isEmpty()) return { radius: 0.3, minY: 0, maxY: 0.5 };
  let radius = 0;
  for (const x of [box.min.x, box.max.x])
    for (const z of [box.min.z, box.max.z]) radius = Math.max(radius, Math.hypot(x, z));
  return { radius: Math.max(radius, 0.01), minY: box.min.y, maxY: Math.max(box.max.y, box.min.y + 0.01) };
}

function fits(camera: THREE.PerspectiveCamera, sweep: Sweep, offsetX: number, scale: number): boolean {
  camera.updateMatrixWorld(true);
  const p = new THREE.Vector3();
  const limitX = (1 - MARGIN) * scale - 2 * Math.abs(offsetX);
  const limitY = (1 - MARGIN) * scale;
  for (let i = 0; i < 24; i++) {
    const a = (i / 24) * Math.PI * 2;
    for (const y of [sweep.minY, sweep.maxY]) {
      p.set(Math.cos(a) * sweep.radius, y, Math.sin(a) * sweep.radius).project(camera);
      if (Math.abs(p.x) > limitX || Math.abs(p.y) > limitY || p.z > 1) return false;
    }
  }
  return true;
}

/** Places `camera` for a frame of `aspect` (width/height). */
export function frameCamera(
  camera: THREE.PerspectiveCamera,
  sweep: Sweep,
  aspect: number,
  zoom: number,
  offsetX: number,
  width: number,
  height: number,
): void {
  camera.fov = FOV;
  camera.aspect = aspect;
  const target = new THREE.Vector3(0, (sweep.minY + sweep.maxY) / 2, 0);
  const place = (d: number) => {
    camera.position.set(0, target.y + Math.sin(ELEVATION) * d, Math.cos(ELEVATION) * d);
    camera.lookAt(target);
    camera.near = Math.max(0.01, d - sweep.radius * 3);
    camera.far = d + 200;
    camera.clearViewOffset();
    camera.updateProjectionMatrix();
  };
  const safeOffset = Math.max(-0.3, Math.min(0.3, Number.isFinite(offsetX) ? offsetX : 0));
  const z = Math.max(0.5, Math.min(2, Number.isFinite(zoom) ? zoom : 1));
  // zoom < 1 frames the cylinder larger (1 at zoom 1 up to MAX_CLOSE_UP at 0.5) rather than
  // dividing the distance, so the camera stays outside the build and its outline in frame
  const scale = z < 1 ? 1 + (1 / z - 1) * (MAX_CLOSE_UP - 1) : 1;
  // bisection between a surely-too-close and a surely-far-enough distance
  let lo = sweep.radius * 0.5;
  let hi = Math.max(sweep.radius, sweep.maxY - sweep.minY) * 40;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    place(mid);
    if (fits(camera, sweep, safeOffset, scale)) hi = mid;
    else lo = mid;
  }
  // and never inside (or grazing) the swept cylinder, whatever the frame's aspect
  place(Math.max(z > 1 ? hi * z : hi, sweep.radius * 1.6));
  if (safeOffset !== 0) {
    camera.setViewOffset(width, height, -safeOffset * width, 0, width, height);
  }
}
