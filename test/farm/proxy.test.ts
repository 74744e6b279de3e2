/**
 * The shadow/glow proxy (farm/src/scene/proxies.ts) with the real meshoptimizer simplifier, in
 * Node: split vertices are welded, dense surfaces lose most of their triangles at an error of a
 * few millimetres while the silhouette stays within it, parts smaller than the error are pruned,
 * a tiny error changes nothing, and the result is deterministic.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { lodReady } from '../../farm/src/models/model-lod.js';
import { addProxy, simplifyProxy } from '../../farm/src/scene/proxies.js';

/** A geometry's positions and index as addProxy merges them. */
function arrays(g: THREE.BufferGeometry, offset = new THREE.Vector3()): { position: Float32Array; index: Uint32Array } {
  const p = g.getAttribute('position');
  const position = new Float32Array(p.count * 3);
  for (let i = 0; i < p.count; i++)
    position.set([p.getX(i) + offset.x, p.getY(i) + offset.y, p.getZ(i) + offset.z], i * 3);
  const index = new Uint32Array(g.index!.count);
  for (let i = 0; i < index.length; i++) index[i] = g.index!.getX(i);
  return { position, index };
}

function concat(a: { position: Float32Array; index: Uint32Array }, b: { position: Float32Array; index: Uint32Array }) {
  const position = new Float32Array([...a.position, ...b.position]);
  const index = new Uint32Array([...a.index, ...Array.from(b.index, (i) => i + a.position.length / 3)]);
  return { position, index };
}

function box(position: Float32Array, index: Uint32Array): THREE.Box3 {
  const b = new THREE.Box3();
  const v = new THREE.Vector3();
  for (const i of index) b.expandByPoint(v.fromArray(position, i * 3));
  return b;
}

describe('shadow/glow proxy', () => {
  it('welds, simplifies within the error, prunes what is smaller, and is deterministic', async () => {
    await lodReady();
    // a dense 100 mm sphere (split seam vertices) and a 1 mm cube far from it
    const sphere = arrays(new THREE.SphereGeometry(100, 96, 64));
    const tiny = arrays(new THREE.BoxGeometry(1, 1, 1), new THREE.Vector3(500, 0, 0));
    const input = concat(sphere, tiny);
    const out = simplifyProxy(input.position, input.index, 4)!;
    expect(out).not.toBeNull();
    expect(out.index.length / 3).toBeLessThan((input.index.length / 3) * 0.2);
    // welded: the sphere's seam and pole duplicates are gone
    expect(out.position.length / 3).toBeLessThan(input.position.length / 3);
    // the silhouette stays within the error; the 1 mm cube is pruned
    const b = box(out.position, out.index);
    expect(b.max.x).toBeGreaterThan(96);
    expect(b.max.x).toBeLessThan(104);
    expect(b.min.y).toBeLessThan(-96);
    expect(simplifyProxy(input.position, input.index, 4)!.index).toEqual(out.index);
    // a hundredth of a millimetre removes too little to be worth it
    expect(simplifyProxy(input.position, input.index, 0.00001)).toBeNull();
  });

  it('addProxy takes the error in world units and keeps every triangle at 0', async () => {
    await lodReady();
    const model = () => {
      const g = new THREE.Group();
      g.add(
        new THREE.Mesh(
          new THREE.SphereGeometry(100, 96, 64),
          new THREE.MeshStandardMaterial({ name: 'base:solid:0.5:0.5' }),
        ),
      );
      g.scale.setScalar(0.001); // millimetres, as the stage scales a build
      return g;
    };
    const whole = addProxy(model(), 0)!;
    const coarse = addProxy(model(), 0.004)!; // 4 mm in metres
    expect(whole.geometry.index!.count).toBe(new THREE.SphereGeometry(100, 96, 64).index!.count);
    expect(coarse.geometry.index!.count).toBeLessThan(whole.geometry.index!.count * 0.2);
  });
});
