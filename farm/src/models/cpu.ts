/**
 * A CPU as seen in its socket: substrate and heat spreader. Local frame: origin on the
 * board face at the socket centre, -x toward the window.
 */
import * as THREE from 'three';
import type { CpuSpecs } from '../../../src/model/part.js';
import { box } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';

/** Height of the CPU above the board face (the cooler sits on it). */
export const CPU_HEIGHT = 8;

export function buildCpu(kit: MaterialKit, specs: CpuSpecs): THREE.Group {
  const g = new THREE.Group();
  const intel = specs.brand === 'Intel';
  const [su, sv] = intel ? [37.5, 45] : [40, 40];
  box(g, kit.solid('#2f5d3a', 0.6, 0.1), [3, sv, su], [-4, 0, 0]);
  box(g, kit.metal('#cfd3d8', 0.28), [3, sv * 0.72, su * 0.78], [-6.5, 0, 0]);
  // brand tick: a small engraved bar in a vendor-ish tone
  box(
    g,
    kit.solid(intel ? '#1f5fbf' : specs.brand === 'AMD' ? '#c23b22' : '#555a60', 0.5, 0.3),
    [0.4, 3, su * 0.5],
    [-8.1, sv * 0.2, 0],
  );
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}
