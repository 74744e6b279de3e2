/**
 * Procedural textures as DataTextures: the stage page may make no network requests, and
 * DataTexture (unlike CanvasTexture) also works in Node, where tests build the models.
 * Each is made once per process and shared; they are tiny.
 */
import * as THREE from 'three';

const made = new Map<string, THREE.DataTexture>();

function texture(key: string, size: number, fill: (u: number, v: number) => [number, number, number, number], repeat = false): THREE.DataTexture {
  const cached = made.get(key);
  if (cached) return cached;
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const px = fill((x + 0.5) / size, (y + 0.5) / size);
      const o = (y * size + x) * 4;
      for (let k = 0; k < 4; k++) data[o + k] = Math.max(0, Math.min(255, Math.round(px[k]! * 255)));
    }
  }
  const t = new THREE.DataTexture(data, size, size, THREE.RGBAFormat);
  t.magFilter = THREE.LinearFilter;
  t.minFilter = THREE.LinearMipmapLinearFilter;
  t.generateMipmaps = true;
  if (repeat) t.wrapS = t.wrapT = THREE.RepeatWrapping;
  t.needsUpdate = true;
  made.set(key, t);
  return t;
}

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

/** Two soft diagonal light streaks, drawn additively over glass panels. */
export function glassSheenTexture(): THREE.DataTexture {
  return texture('glass-sheen', 64, (u, v) => {
    const d = u * 0.8 + v;
    const band = (c: number, w: number) => Math.max(0, 1 - Math.abs(d - c) / w);
    const a = 0.28 * band(0.55, 0.12) + 0.16 * band(0.8, 0.05) + 0.05;
    return [a, a, a * 1.05, 1];
  });
}

/** One round hole per tile (alpha map: white = solid steel, black = hole). */
export function perforationTexture(): THREE.DataTexture {
  return texture(
    'perforation',
    16,
    (u, v) => {
      const r = Math.hypot(u - 0.5, v - 0.5);
      const solid = smooth(0.28, 0.36, r);
      return [solid, solid, solid, 1];
    },
    true,
  );
}

/** A soft dark blot: the ground contact shadow under a case (alpha in the A channel). */
export function contactShadowTexture(): THREE.DataTexture {
  return texture('contact-shadow', 64, (u, v) => {
    // a rounded rectangle with a wide falloff, like an ambient-occlusion footprint
    const dx = Math.max(0, Math.abs(u - 0.5) - 0.22);
    const dy = Math.max(0, Math.abs(v - 0.5) - 0.22);
    const d = Math.hypot(dx, dy) / 0.28;
    const a = Math.pow(Math.max(0, 1 - d), 2.2);
    return [0, 0, 0, a];
  });
}

/** A soft round dot for particles. */
export function softDotTexture(): THREE.DataTexture {
  return texture('soft-dot', 32, (u, v) => {
    const r = Math.hypot(u - 0.5, v - 0.5) * 2;
    const a = Math.pow(Math.max(0, 1 - r), 1.5);
    return [1, 1, 1, a];
  });
}
