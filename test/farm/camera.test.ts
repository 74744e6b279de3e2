/** The camera frames the whole turning build; zoom and offset behave as documented. */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { frameCamera, type Sweep } from '../../farm/src/scene/camera.js';

const sweep: Sweep = { radius: 0.33, minY: -0.01, maxY: 0.48 };

function project(camera: THREE.PerspectiveCamera, p: THREE.Vector3): THREE.Vector3 {
  camera.updateMatrixWorld(true);
  return p.clone().project(camera);
}

function place(aspect: number, zoom = 1, offset = 0): THREE.PerspectiveCamera {
  const camera = new THREE.PerspectiveCamera();
  frameCamera(camera, sweep, aspect, zoom, offset, Math.round(512 * aspect), 512);
  return camera;
}

describe('frameCamera', () => {
  it('keeps every point of the swept build in frame, for square and wide frames', () => {
    for (const aspect of [1, 16 / 9, 9 / 16]) {
      const camera = place(aspect);
      for (let i = 0; i < 36; i++) {
        const a = (i / 36) * Math.PI * 2;
        for (const y of [sweep.minY, sweep.maxY]) {
          const p = project(camera, new THREE.Vector3(Math.cos(a) * sweep.radius, y, Math.sin(a) * sweep.radius));
          expect(Math.abs(p.x)).toBeLessThanOrEqual(1);
          expect(Math.abs(p.y)).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it('cameraZoom > 1 moves the camera farther, clamped to 0.5..2', () => {
    const d = (z: number) => place(1, z).position.length();
    expect(d(2)).toBeGreaterThan(d(1));
    expect(d(1)).toBeGreaterThan(d(0.5));
    expect(d(5)).toBeCloseTo(d(2), 6);
    expect(d(NaN)).toBeCloseTo(d(1), 6);
  });

  it('cameraOffsetX shifts the build sideways by that fraction of the frame', () => {
    const centre = new THREE.Vector3(0, (sweep.minY + sweep.maxY) / 2, 0);
    expect(project(place(1, 1, 0), centre).x).toBeCloseTo(0, 5);
    expect(project(place(1, 1, 0.2), centre).x).toBeCloseTo(0.4, 5); // NDC spans 2 frame widths
    expect(project(place(1, 1, -0.3), centre).x).toBeCloseTo(-0.6, 5);
  });
});
