/**
 * Procedural textures as DataTextures: the stage page may make no network requests, and
 * DataTexture (unlike CanvasTexture) also works in Node, where tests build the models.
 * Each is made once per process and shared; they are tiny.
 */
import * as THREE from 'three';

const made = new Map<string, THREE.DataTexture>();

function texture(
  key: string,
  size: number,
  fill: (u: number, v: number) => [number, number, number, number],
  repeat = false,
): THREE.DataTexture {
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

/** A tiling grey map (the same value in R, G and B; opaque): roughness, weave and mesh masks. */
function greyTileTexture(key: string, size: number, grey: (u: number, v: number) => number): THREE.DataTexture {
  return texture(
    key,
    size,
    (u, v) => {
      const k = grey(u, v);
      return [k, k, k, 1];
    },
    true,
  );
}

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

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

/** Hash noise in [0, 1) for integer cells (deterministic, no Math.random). */
function cellNoise(x: number, y: number, seed: number): number {
  let h = Math.imul(x * 374761393 + y * 668265263 + seed * 2147483647, 1274126177);
  h = Math.imul(h ^ (h >>> 13), 1103515245);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/**
 * Brushed metal: fine streaks along u, as a roughness map (green channel) around 1.0 so the
 * material's own roughness stays the mean. Tiles every 100 mm of box UV (geometry.ts).
 */
export function brushedTexture(): THREE.DataTexture {
  return greyTileTexture('brushed', 128, (u, v) => {
    const row = Math.floor(v * 128);
    return 0.7 + 0.6 * cellNoise(row, Math.floor(u * 3), 7) * (0.6 + 0.4 * cellNoise(row, 1, 3));
  });
}

/** Fine grain for textured plastics: a roughness map with a little per-speck variation. */
export function grainTexture(): THREE.DataTexture {
  return greyTileTexture('grain', 64, (u, v) => 0.8 + 0.4 * cellNoise(Math.floor(u * 64), Math.floor(v * 64), 11));
}

/** Braided cable sleeve: diagonal weave as a colour modulation (multiplied with the colour). */
export function sleeveTexture(): THREE.DataTexture {
  return greyTileTexture('sleeve', 32, (u, v) => {
    const a = Math.abs(((u * 4 + v * 4) % 1) - 0.5) * 2;
    const b = Math.abs(((u * 4 - v * 4 + 8) % 1) - 0.5) * 2;
    const over = (Math.floor(u * 8) + Math.floor(v * 8)) % 2 === 0 ? a : b;
    return 0.62 + 0.38 * smooth(0.1, 0.9, over);
  });
}

/**
 * Front and side mesh panels: a hexagonal perforation with a large open area (about 60%),
 * so fans and their RGB behind the mesh stay visible (alpha map: white = steel, black = hole).
 */
export function hexMeshTexture(): THREE.DataTexture {
  return greyTileTexture('hex-mesh', 32, (u, v) => {
    // two offset rows of round-ish holes per tile: a hex lattice
    const d1 = Math.hypot(u - 0.5, (v - 0.25) * 1.0);
    const d2 = Math.min(Math.hypot(u, v - 0.75), Math.hypot(u - 1, v - 0.75));
    const d3 = Math.min(Math.hypot(u, v + 0.25), Math.hypot(u - 1, v + 0.25), Math.hypot(u - 0.5, v - 1.25));
    const d = Math.min(d1, d2, d3);
    return smooth(0.26, 0.32, d);
  });
}
