/**
 * The full-screen quad's vertex shader and the separable Gaussian blur drawn with it: one owner
 * for the floor mirror's blur (floor-reflection.ts) and the bloom's (post.ts). A pass sets
 * `tDiffuse` (the source) and `step` (one texel along the pass's axis, times its spread).
 */
import * as THREE from 'three';

/** A PlaneGeometry(2, 2) covering the target; passes vUv on. */
export const QUAD_VERTEX = /* glsl */ `
varying vec2 vUv;
void main() { vUv = uv; gl_Position = vec4(position.xy, 0.0, 1.0); }`;

// a 9-tap Gaussian read in 5 taps, the off-centre pairs merged by bilinear filtering
const BLUR_FRAGMENT = /* glsl */ `
uniform sampler2D tDiffuse; uniform vec2 step;
varying vec2 vUv;
void main() {
  vec4 c = texture2D(tDiffuse, vUv) * 0.227027;
  c += texture2D(tDiffuse, vUv + step * 1.384615) * 0.316216;
  c += texture2D(tDiffuse, vUv - step * 1.384615) * 0.316216;
  c += texture2D(tDiffuse, vUv + step * 3.230769) * 0.070270;
  c += texture2D(tDiffuse, vUv - step * 3.230769) * 0.070270;
  gl_FragColor = c;
}`;

/** One axis of the blur, drawn on the quad over the whole target, replacing what was there. */
export function blurMaterial(): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: { tDiffuse: { value: null }, step: { value: new THREE.Vector2() } },
    vertexShader: QUAD_VERTEX,
    fragmentShader: BLUR_FRAGMENT,
    depthTest: false,
    depthWrite: false,
    blending: THREE.NoBlending,
  });
}
