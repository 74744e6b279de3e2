/**
 * A ground grid like drei's <Grid>: anti-aliased shader lines (cells and sections) that fade
 * out with distance from the build. gridSettings (docs/design-decisions.md, "Render options") map as follows:
 * cellThickness / sectionThickness are line widths in pixels; color tints both line sets
 * (sections brighter); fadeDistance is in grid units of 10 cm (the default 20 = 2 m);
 * renderOrder is the mesh's render order. Cells are 5 cm, sections 25 cm.
 */
import * as THREE from 'three';
import type { GridSettings } from '../../../src/model/render-defaults.js';

export const GRID_UNIT_M = 0.1;
const CELL_M = 0.05;
const SECTION_M = 0.25;

const vertex = /* glsl */ `
varying vec2 vLocal;
void main() {
  vLocal = position.xy;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}`;

const fragment = /* glsl */ `
uniform float cellSize; uniform float sectionSize;
uniform float cellThickness; uniform float sectionThickness;
uniform vec3 cellColor; uniform vec3 sectionColor;
uniform float fadeDistance;
varying vec2 vLocal;
float line(float size, float thickness) {
  vec2 r = vLocal / size;
  vec2 g = abs(fract(r - 0.5) - 0.5) / fwidth(r);
  float l = min(g.x, g.y) + 1.0 - thickness;
  return 1.0 - min(l, 1.0);
}
void main() {
  float c = line(cellSize, cellThickness);
  float s = line(sectionSize, sectionThickness);
  float fade = pow(1.0 - min(length(vLocal) / fadeDistance, 1.0), 1.5);
  vec3 col = mix(cellColor, sectionColor, min(1.0, s));
  float a = max(c * 0.55, s) * fade;
  if (a <= 0.002) discard;
  gl_FragColor = vec4(col, a);
  #include <tonemapping_fragment>
  #include <colorspace_fragment>
}`;

/** The grid at floor height `y`; `settings` parsed by parseStageOptions (every value present and in range). */
export function buildGrid(settings: GridSettings, y: number): THREE.Mesh {
  const color = new THREE.Color(settings.color);
  const fadeDistance = settings.fadeDistance * GRID_UNIT_M;
  const material = new THREE.ShaderMaterial({
    vertexShader: vertex,
    fragmentShader: fragment,
    uniforms: {
      cellSize: { value: CELL_M },
      sectionSize: { value: SECTION_M },
      cellThickness: { value: settings.cellThickness },
      sectionThickness: { value: settings.sectionThickness },
      cellColor: { value: color.clone().multiplyScalar(0.85) },
      sectionColor: { value: color.clone().multiplyScalar(1.25) },
      fadeDistance: { value: fadeDistance },
    },
    transparent: true,
    depthWrite: false,
    side: THREE.DoubleSide,
  });
  // the plane only needs to reach the fade radius (capped: the camera never sees farther)
  const size = Math.min(fadeDistance, 30) * 2;
  const mesh = new THREE.Mesh(new THREE.PlaneGeometry(size, size), material);
  mesh.rotation.x = -Math.PI / 2;
  mesh.position.y = y + 0.0008;
  mesh.renderOrder = settings.renderOrder;
  mesh.name = 'grid';
  return mesh;
}
