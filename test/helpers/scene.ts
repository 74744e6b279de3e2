/** Shared helpers for the farm model tests (Node only: no DOM, no WebGL). */
import * as THREE from 'three';
import type { Category } from '../../src/model/part.js';

/** Child groups of a build group for a category. */
export function partsIn(group: THREE.Object3D, category: Category): THREE.Object3D[] {
  return group.children.filter((c) => c.userData.category === category);
}

export function boxOf(object: THREE.Object3D): THREE.Box3 {
  object.updateMatrixWorld(true);
  return new THREE.Box3().setFromObject(object);
}

/** Whether `inner` lies within `outer`, allowing `slack` mm. */
export function within(inner: THREE.Box3, outer: THREE.Box3, slack = 0.5): boolean {
  return (
    inner.min.x >= outer.min.x - slack &&
    inner.min.y >= outer.min.y - slack &&
    inner.min.z >= outer.min.z - slack &&
    inner.max.x <= outer.max.x + slack &&
    inner.max.y <= outer.max.y + slack &&
    inner.max.z <= outer.max.z + slack
  );
}

/** Every box in the tree is finite (no NaN crept into a position or a size). */
export function finite(box: THREE.Box3): boolean {
  return [box.min.x, box.min.y, box.min.z, box.max.x, box.max.y, box.max.z].every(Number.isFinite);
}
