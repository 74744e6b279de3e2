import * as THREE from 'three';
import { buildBuildGroup } from '../../src/build-scene.js';
import { mergeByMaterial } from '../../src/util/merge.js';
import { countTriangles } from '../../src/util/geometry.js';
import { demoBuild } from '../../../test/farm/helpers.js';
for (const code of ['DEMO-GLASS', 'DEMO-RGB']) {
  const b = buildBuildGroup(demoBuild(code));
  const per = new Map<string, number>();
  for (const c of b.group.children) per.set(c.userData.category, (per.get(c.userData.category) ?? 0) + countTriangles(c));
  const merged = mergeByMaterial(b.group);
  const mats = new Map<string, number>();
  merged.traverse((o) => { const m = o as THREE.Mesh; if (m.isMesh) mats.set((m.material as THREE.Material).name, countTriangles(m)); });
  console.log(code, b.triangles, [...per].map(([k, v]) => `${k}:${v}`).join(' '), 'meshes', merged.children.length);
  console.log([...mats].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join('  '));
}
