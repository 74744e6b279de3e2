/**
 * The backdrop: a sky dome drawn by a small shader (gradient, sun glow, stars and a
 * procedural horizon silhouette: hills, trees, a city skyline with lit windows, interior
 * windows or columns). With showBackground off the same dome draws the preset's plain
 * two-tone backdrop. It stays fixed to the camera while the build turns.
 */
import * as THREE from 'three';
import type { ScenePreset, Silhouette } from './presets.js';

const SILHOUETTE_ID: Record<Silhouette, number> = { none: 0, hills: 1, trees: 2, skyline: 3, windows: 4, columns: 5 };

const vertex = /* glsl */ `
varying vec3 vDir;
void main() {
  vDir = normalize(position);
  vec4 p = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
  gl_Position = p.xyww; // on the far plane
}`;

const fragment = /* glsl */ `
uniform vec3 top; uniform vec3 horizon; uniform vec3 ground;
uniform vec3 sunColor; uniform vec3 sunDir; uniform float sunGlow;
uniform float stars; uniform int silhouette; uniform vec3 silColor; uniform float plain;
varying vec3 vDir;
float hash(float n) { return fract(sin(n) * 43758.5453123); }
float hash2(vec2 p) { return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453123); }
float noise1(float x) { float i = floor(x); float f = fract(x); return mix(hash(i), hash(i + 1.0), f * f * (3.0 - 2.0 * f)); }
void main() {
  vec3 d = normalize(vDir);
  float y = d.y;
  if (plain > 0.5) {
    float t = smoothstep(-0.35, 0.45, y);
    gl_FragColor = vec4(mix(ground, top, t), 1.0);
    #include <tonemapping_fragment>
    #include <colorspace_fragment>
    return;
  }
  vec3 col = y >= 0.0 ? mix(horizon, top, pow(smoothstep(0.0, 0.65, y), 0.75)) : mix(horizon, ground, smoothstep(0.0, 0.12, -y));
  float s = max(dot(d, normalize(sunDir)), 0.0);
  col += sunColor * sunGlow * (pow(s, 24.0) * 0.6 + pow(s, 600.0) * 3.0);
  float az = atan(d.z, d.x);
  if (stars > 0.5 && y > 0.05) {
    vec2 g = vec2(az * 160.0, y * 220.0);
    vec2 cell = floor(g);
    float h = hash2(cell);
    vec2 at = vec2(hash2(cell + 3.1), hash2(cell + 7.7)) * 0.6 + 0.2;
    float dot = 1.0 - smoothstep(0.05, 0.16, length(fract(g) - at));
    if (h > 0.97) col += vec3(0.8, 0.85, 1.0) * dot * (h - 0.97) * 60.0 * smoothstep(0.02, 0.2, y);
  }
  float sil = -1.0;
  vec3 lit = silColor;
  if (silhouette == 1) sil = 0.02 + 0.05 * noise1(az * 2.2 + 3.0) + 0.02 * noise1(az * 7.0);
  else if (silhouette == 2) {
    float k = az * 38.0;
    float tri = abs(fract(k) - 0.5) * 2.0;
    sil = 0.03 + (0.05 + 0.07 * hash(floor(k))) * (1.0 - tri) + 0.02 * noise1(az * 5.0);
  } else if (silhouette == 3) {
    float k = floor(az * 30.0);
    sil = 0.02 + 0.16 * hash(k) * hash(k + 7.1) + 0.02;
    vec2 w = vec2(az * 30.0 * 6.0, y * 90.0);
    if (y < sil && fract(w.x) < 0.55 && fract(w.y) < 0.5 && hash2(floor(w)) > 0.6) lit = vec3(1.0, 0.8, 0.5) * 0.9;
  } else if (silhouette == 4) {
    // bright window panes with mullions, low on the walls
    float k = az * 6.0;
    if (y > 0.04 && y < 0.32 && fract(k) > 0.12 && fract(k) < 0.88 && fract(y * 18.0) > 0.08) col = mix(col, vec3(1.0, 0.98, 0.92) * 1.4, 0.75);
  } else if (silhouette == 5) {
    float k = fract(az * 5.0);
    if (k < 0.12 && y < 0.5) col = mix(col, silColor, 0.85);
  }
  if (y < sil && y > -0.02) col = mix(col, lit, 0.92);
  gl_FragColor = vec4(col, 1.0);
  #include <tonemapping_fragment>
  #include <colorspace_fragment>
}`;

export function buildBackground(preset: ScenePreset, plain: boolean, radius: number): THREE.Mesh {
  const c = (hex: string) => new THREE.Color(hex);
  const material = new THREE.ShaderMaterial({
    vertexShader: vertex,
    fragmentShader: fragment,
    uniforms: {
      top: { value: c(plain ? preset.plain.top : preset.sky.top) },
      horizon: { value: c(preset.sky.horizon) },
      ground: { value: c(plain ? preset.plain.bottom : preset.sky.ground) },
      sunColor: { value: c(preset.sky.sun) },
      sunDir: { value: new THREE.Vector3(...preset.sky.sunDir) },
      sunGlow: { value: preset.sky.sunGlow },
      stars: { value: preset.sky.stars ? 1 : 0 },
      silhouette: { value: SILHOUETTE_ID[preset.silhouette] },
      silColor: { value: c(preset.silhouetteColor) },
      plain: { value: plain ? 1 : 0 },
    },
    side: THREE.BackSide,
    depthWrite: false,
    depthTest: false,
  });
  const mesh = new THREE.Mesh(new THREE.SphereGeometry(radius, 32, 16), material);
  mesh.name = 'background';
  mesh.renderOrder = -1000;
  mesh.frustumCulled = false;
  return mesh;
}
