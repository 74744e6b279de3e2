/**
 * Reflections from a procedural environment: a small gradient sphere plus bright panels
 * (softboxes, sun, windows) per preset, prefiltered once per load with PMREMGenerator at a
 * small size. On software GL the environment pass is expensive, so it is made once and cached
 * by preset and size, never per frame.
 */
import * as THREE from 'three';
import type { ScenePreset } from './presets.js';

const cache = new Map<string, THREE.Texture>();

function envScene(preset: ScenePreset): THREE.Scene {
  const scene = new THREE.Scene();
  const sphere = new THREE.SphereGeometry(10, 24, 12);
  const pos = sphere.getAttribute('position');
  const colors = new Float32Array(pos.count * 3);
  const top = new THREE.Color(preset.env.top);
  const horizon = new THREE.Color(preset.env.horizon);
  const bottom = new THREE.Color(preset.env.bottom);
  const c = new THREE.Color();
  for (let i = 0; i < pos.count; i++) {
    const y = pos.getY(i) / 10;
    if (y >= 0) c.copy(horizon).lerp(top, Math.pow(y, 0.7));
    else c.copy(horizon).lerp(bottom, Math.min(1, -y * 4));
    c.toArray(colors, i * 3);
  }
  sphere.setAttribute('color', new THREE.BufferAttribute(colors, 3));
  scene.add(new THREE.Mesh(sphere, new THREE.MeshBasicMaterial({ vertexColors: true, side: THREE.BackSide })));
  for (const panel of preset.env.panels) {
    const m = new THREE.MeshBasicMaterial({
      color: new THREE.Color(panel.color).multiplyScalar(panel.intensity),
      side: THREE.DoubleSide,
    });
    const quad = new THREE.Mesh(new THREE.PlaneGeometry(4, 3), m);
    const dir = new THREE.Vector3(...panel.dir).normalize();
    quad.position.copy(dir.multiplyScalar(8));
    quad.lookAt(0, 0, 0);
    scene.add(quad);
  }
  return scene;
}

/** The prefiltered environment for `preset` (cached per preset name and size). */
export function environmentFor(
  renderer: THREE.WebGLRenderer,
  name: string,
  preset: ScenePreset,
  size: number,
): THREE.Texture {
  const key = `${name}:${size}`;
  let tex = cache.get(key);
  if (!tex) {
    const pmrem = new THREE.PMREMGenerator(renderer);
    const scene = envScene(preset);
    tex = pmrem.fromScene(scene, 0, 0.1, 100, { size }).texture;
    pmrem.dispose();
    scene.traverse((o) => {
      const m = o as THREE.Mesh;
      if (m.isMesh) {
        m.geometry.dispose();
        (m.material as THREE.Material).dispose();
      }
    });
    cache.set(key, tex);
  }
  return tex;
}

export function disposeEnvironments(): void {
  for (const t of cache.values()) t.dispose();
  cache.clear();
}
