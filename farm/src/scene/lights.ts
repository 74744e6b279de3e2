/**
 * The light rig of a preset: key (the only shadow caster), fill, rim and a hemisphere
 * ambient. Fixed in the world, i.e. relative to the camera, while the build turns: the
 * build then reads like a product on a turntable under studio lights.
 */
import * as THREE from 'three';
import type { LightSpec, ScenePreset } from './presets.js';
import { MIRROR_LAYER, SHADOW_LAYER } from './proxies.js';

export interface LightRig {
  group: THREE.Group;
  key: THREE.DirectionalLight;
}

function directional(spec: LightSpec, distance: number, target: THREE.Vector3): THREE.DirectionalLight {
  const light = new THREE.DirectionalLight(spec.color, spec.intensity);
  light.position.copy(new THREE.Vector3(...spec.dir).normalize().multiplyScalar(distance)).add(target);
  light.target.position.copy(target);
  return light;
}

/**
 * `center`/`radius`: the build's bounding sphere in metres; shadows are fitted to it.
 * `intensityScale` lets the flat profile calm the rig down to neutral product light.
 */
export function buildLights(
  preset: ScenePreset,
  center: THREE.Vector3,
  radius: number,
  shadowMapSize: number,
  neutral: boolean,
): LightRig {
  const group = new THREE.Group();
  group.name = 'lights';
  const spec = (s: LightSpec): LightSpec => (neutral ? { ...s, color: '#ffffff' } : s);
  const d = radius * 4;
  const key = directional(spec(preset.key), d, center);
  const fill = directional(spec(preset.fill), d, center);
  const rim = directional(spec(preset.rim), d, center);
  if (shadowMapSize > 0) {
    key.castShadow = true;
    key.shadow.mapSize.set(shadowMapSize, shadowMapSize);
    const cam = key.shadow.camera;
    const r = radius * 1.6;
    cam.left = -r;
    cam.right = r;
    cam.top = r;
    cam.bottom = -r;
    cam.near = d - radius * 2.5;
    cam.far = d + radius * 2.5;
    cam.updateProjectionMatrix();
    key.shadow.bias = -0.0004;
    key.shadow.normalBias = 0.004;
    key.shadow.radius = 2;
    // the shadow map draws the build's one-mesh proxy only (proxies.ts)
    key.shadow.camera.layers.set(SHADOW_LAYER);
  }
  const hemi = new THREE.HemisphereLight(
    neutral ? '#ffffff' : preset.hemi.sky,
    neutral ? '#808080' : preset.hemi.ground,
    preset.hemi.intensity,
  );
  group.add(key, key.target, fill, fill.target, rim, rim.target, hemi);
  // a camera uses only the lights on its layers: the floor mirror's too
  group.traverse((o) => o.layers.enable(MIRROR_LAYER));
  return { group, key };
}
