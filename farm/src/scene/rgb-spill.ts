/**
 * Tinted light spill from the RGB parts (cinematic): one small point light at the middle of
 * the build's glowing meshes, in their colour, falling off within the case. One light, not
 * one per part: every extra light is a loop iteration in every lit pixel on llvmpipe.
 * It turns with the build (a child of the model) and is left out of the floor mirror.
 */
import * as THREE from 'three';
import { isGlowMaterial } from './proxies.js';

/** Adds the spill light to `model` (millimetre units inside); null when nothing glows. */
export function addRgbSpill(model: THREE.Object3D, color: string | null): THREE.PointLight | null {
  model.updateMatrixWorld(true);
  const inverse = new THREE.Matrix4().copy(model.matrixWorld).invert();
  const centre = new THREE.Vector3();
  const box = new THREE.Box3();
  let weight = 0;
  model.traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh || Array.isArray(mesh.material) || !isGlowMaterial(mesh.material as THREE.Material)) return;
    mesh.geometry.computeBoundingBox();
    box.copy(mesh.geometry.boundingBox!).applyMatrix4(new THREE.Matrix4().multiplyMatrices(inverse, mesh.matrixWorld));
    const size = box.getSize(new THREE.Vector3()).length();
    centre.addScaledVector(box.getCenter(new THREE.Vector3()), size);
    weight += size;
  });
  if (weight === 0) return null;
  centre.divideScalar(weight);
  // the rainbow default reads as a cool violet in sum
  const light = new THREE.PointLight(color ?? '#9a7cff', 0.05, 0.55, 2);
  light.name = 'rgb-spill';
  // the model is in millimetres scaled to metres: place it in model space
  light.position.copy(centre);
  model.add(light);
  return light;
}
