/**
 * Drives. M.2: a 22x80 mm stick with a heatsink label, lying on the board (local -x up off
 * the board, long side along z). 2.5" and 3.5": drive bodies lying flat (local y thin).
 */
import * as THREE from 'three';
import type { StorageSpecs } from '../../../src/model/part.js';
import { box } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';

export function buildStorage(kit: MaterialKit, specs: StorageSpecs): THREE.Group {
  const g = new THREE.Group();
  if (specs.formFactor === 'M.2') {
    box(g, kit.solid('#143a24', 0.6, 0.1), [1, 22, 80], [-0.5, 0, 0]);
    box(g, kit.solid('#24262a', 0.35, 0.7), [3, 21, 70], [-2.5, 0, 2]);
    box(g, kit.solid('#d6d9dd', 0.4, 0.5), [0.4, 12, 26], [-4.2, 0, 12]);
  } else if (specs.formFactor === '2.5') {
    box(g, kit.solid('#2b2d31', 0.45, 0.5), [70, 7, 100], [0, 3.5, 0]);
    box(g, kit.solid('#c8cbd0', 0.4, 0.4), [56, 0.4, 60], [0, 7.2, 10]);
  } else {
    box(g, kit.metal('#8e939a', 0.45), [101.6, 26, 147], [0, 13, 0]);
    box(g, kit.solid('#e5e7ea', 0.5, 0.1), [80, 0.4, 90], [0, 26.2, 10]);
  }
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}
