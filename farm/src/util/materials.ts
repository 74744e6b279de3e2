/**
 * Materials of one build. Shared by key so that a full build needs few shader programs and
 * merged meshes (see merge.ts) collapse to few draw calls, which is what costs most on a CPU
 * rasteriser. RGB parts all draw from `rgb()`, so the build's InteractiveState.rgb tints
 * every RGB-capable part in one place.
 */
import * as THREE from 'three';
import { glassSheenTexture, perforationTexture } from './textures.js';

export interface RgbSettings {
  /** one colour for every RGB part; null = the default rainbow */
  color: string | null;
  /** state.rgb.mode === 'off': RGB parts are unlit */
  off: boolean;
}

/** How bright RGB strips are (linear). Above the bloom threshold so cinematic bloom picks them up. */
const RGB_INTENSITY = 1.5;

export class MaterialKit {
  private cache = new Map<string, THREE.Material>();
  constructor(readonly rgbSettings: RgbSettings = { color: null, off: false }) {}

  private memo<T extends THREE.Material>(key: string, make: () => T): T {
    let m = this.cache.get(key) as T | undefined;
    if (!m) {
      m = make();
      m.name = key;
      this.cache.set(key, m);
    }
    return m;
  }

  /** A painted/plastic/metal surface. */
  solid(color: string, roughness = 0.55, metalness = 0.1): THREE.MeshStandardMaterial {
    return this.memo(`solid:${color}:${roughness}:${metalness}`, () => new THREE.MeshStandardMaterial({ color, roughness, metalness }));
  }

  /** Both faces drawn (fan blades, thin sheets). */
  sheet(color: string, roughness = 0.5, metalness = 0.1): THREE.MeshStandardMaterial {
    return this.memo(`sheet:${color}:${roughness}:${metalness}`, () => new THREE.MeshStandardMaterial({ color, roughness, metalness, side: THREE.DoubleSide }));
  }

  /** Brushed aluminium (heatsinks, fins, IHS). */
  metal(color = '#b9bec4', roughness = 0.35): THREE.MeshStandardMaterial {
    return this.solid(color, roughness, 0.85);
  }

  /**
   * The glowing RGB material. Geometry drawn with it must carry a `color` attribute (see
   * paintRainbow in geometry.ts): the rainbow default uses it; a state colour ignores it.
   */
  rgb(): THREE.Material {
    const { color, off } = this.rgbSettings;
    if (off) return this.memo('rgb:off', () => new THREE.MeshStandardMaterial({ color: '#202226', roughness: 0.4, metalness: 0 }));
    if (color) {
      return this.memo(`rgb:${color}`, () => {
        const c = new THREE.Color(color).multiplyScalar(RGB_INTENSITY);
        // not tone mapped: ACES would wash a bright colour out to white; clamping keeps the hue
        return new THREE.MeshBasicMaterial({ color: c, toneMapped: false });
      });
    }
    return this.memo('rgb:rainbow', () => {
      const m = new THREE.MeshBasicMaterial({ vertexColors: true, toneMapped: false });
      m.color.setScalar(RGB_INTENSITY);
      return m;
    });
  }

  /** Tempered glass: a faint tint plus a reflective sheen; no shadow casting (set on the mesh). */
  glass(): THREE.MeshStandardMaterial {
    return this.memo('glass', () => {
      const m = new THREE.MeshStandardMaterial({
        color: '#0d1418',
        roughness: 0.04,
        metalness: 0.0,
        transparent: true,
        opacity: 0.1,
        envMapIntensity: 2.5,
        depthWrite: false,
      });
      return m;
    });
  }

  /** Additive diagonal streaks on glass so a panel reads as glass even without an env map. */
  glassSheen(): THREE.MeshBasicMaterial {
    return this.memo('glass-sheen', () =>
      new THREE.MeshBasicMaterial({
        map: glassSheenTexture(),
        transparent: true,
        blending: THREE.AdditiveBlending,
        depthWrite: false,
        opacity: 0.18,
      }),
    );
  }

  /** Perforated steel mesh: cut-out holes so the inside is only glimpsed. */
  perforated(color: string): THREE.MeshStandardMaterial {
    return this.memo(`perforated:${color}`, () =>
      new THREE.MeshStandardMaterial({
        color,
        roughness: 0.6,
        metalness: 0.4,
        alphaMap: perforationTexture(),
        transparent: true,
        opacity: 0.96,
        depthWrite: true,
        side: THREE.DoubleSide,
      }),
    );
  }

  dispose(): void {
    for (const m of this.cache.values()) m.dispose();
    this.cache.clear();
  }
}
