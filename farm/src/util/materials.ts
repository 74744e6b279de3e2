/**
 * Materials of one build. Shared by key so that a full build needs few shader programs and
 * merged meshes (see merge.ts) collapse to few draw calls, which is what costs most on a CPU
 * rasteriser. Plain surfaces (solid, sheet, metal, brushed, paint, plastic, sleeve) are
 * coloured variants of a few shared base materials: the merge draws them with the base and
 * carries each variant's colour as a vertex colour, so a build of ~60 colours is ~15 draws.
 * RGB parts all draw from `rgb()`, so the build's InteractiveState.rgb tints every
 * RGB-capable part in one place.
 */
import * as THREE from 'three';
import { brushedTexture, grainTexture, hexMeshTexture, sleeveTexture } from './textures.js';

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
  /** canvas textures (labels, silkscreen) made for this build, freed with it */
  private textures = new Map<string, THREE.Texture | null>();
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

  /**
   * A coloured variant of a shared base (`userData.base`, `userData.tint`, see merge.ts).
   * Roughness and metalness snap to a few levels so that variants share bases.
   */
  private variant(
    key: string,
    kind: string,
    color: string,
    roughness: number,
    metalness: number,
    extra: Partial<
      Pick<
        THREE.MeshStandardMaterialParameters,
        'side' | 'roughnessMap' | 'map' | 'alphaMap' | 'transparent' | 'depthWrite'
      >
    > = {},
  ): THREE.MeshStandardMaterial {
    const r = Math.round(Math.min(1, Math.max(0.05, roughness)) * 10) / 10;
    const m = metalness >= 0.7 ? 0.9 : metalness >= 0.35 ? 0.5 : metalness >= 0.15 ? 0.25 : 0;
    const base = this.memo(
      `base:${kind}:${r}:${m}`,
      () =>
        new THREE.MeshStandardMaterial({ color: '#ffffff', vertexColors: true, roughness: r, metalness: m, ...extra }),
    );
    return this.memo(key, () => {
      const v = new THREE.MeshStandardMaterial({ color, roughness: r, metalness: m, ...extra });
      v.userData.base = base;
      v.userData.tint = new THREE.Color(color);
      return v;
    });
  }

  /** A painted/plastic/metal surface. */
  solid(color: string, roughness = 0.55, metalness = 0.1): THREE.MeshStandardMaterial {
    return this.variant(`solid:${color}:${roughness}:${metalness}`, 'solid', color, roughness, metalness);
  }

  /** Both faces drawn (fan blades, thin sheets). */
  sheet(color: string, roughness = 0.5, metalness = 0.1): THREE.MeshStandardMaterial {
    return this.variant(`sheet:${color}:${roughness}:${metalness}`, 'sheet', color, roughness, metalness, {
      side: THREE.DoubleSide,
    });
  }

  /** Polished metal (fins, pipes, IHS): no texture, cheapest metal. */
  metal(color = '#b9bec4', roughness = 0.35): THREE.MeshStandardMaterial {
    return this.solid(color, roughness, 0.85);
  }

  /** Brushed aluminium (heatsink covers, case trims): streaks in the roughness along u. */
  brushed(color = '#b9bec4', roughness = 0.34): THREE.MeshStandardMaterial {
    return this.variant(`brushed:${color}:${roughness}`, 'brushed', color, roughness, 0.9, {
      roughnessMap: brushedTexture(),
    });
  }

  /** Satin powder-coat paint (case shells, shrouds): soft highlights, a hint of metal flake. */
  paint(color: string, roughness = 0.42): THREE.MeshStandardMaterial {
    return this.variant(`paint:${color}:${roughness}`, 'solid', color, roughness, 0.25);
  }

  /** Textured (grained) plastic: fan frames, connectors, RAM PCB edge, pump housings. */
  plastic(color: string, roughness = 0.6): THREE.MeshStandardMaterial {
    return this.variant(`plastic:${color}:${roughness}`, 'plastic', color, roughness, 0, {
      roughnessMap: grainTexture(),
    });
  }

  /** Braided sleeving for cables and AIO tubes (tube UVs scaled to the weave, geometry.ts). */
  sleeve(color: string): THREE.MeshStandardMaterial {
    return this.variant(`sleeve:${color}`, 'sleeve', color, 0.7, 0, { map: sleeveTexture() });
  }

  /**
   * A surface with a canvas texture (labels, name text, silkscreen): `draw` runs once per key
   * and build. Where no canvas exists (Node) the material is plain `fallback` colour.
   */
  textured(
    key: string,
    make: () => THREE.Texture | null,
    fallback: string,
    o: { roughness?: number; metalness?: number; transparent?: boolean; glow?: number } = {},
  ): THREE.MeshStandardMaterial {
    return this.memo(`textured:${key}`, () => {
      let t = this.textures.get(key);
      if (t === undefined) this.textures.set(key, (t = make()));
      const m = new THREE.MeshStandardMaterial({
        color: t ? '#ffffff' : fallback,
        roughness: o.roughness ?? 0.5,
        metalness: o.metalness ?? 0.1,
      });
      if (t) m.map = t;
      if (t && o.glow) {
        // printed names stay legible on a card edge in shadow (real ones are often lit)
        m.emissiveMap = t;
        m.emissive.setScalar(o.glow);
      }
      if (o.transparent) {
        m.transparent = true;
        m.depthWrite = false;
        // decals sit a hair above their surface: pull them forward instead of z-fighting
        m.polygonOffset = true;
        m.polygonOffsetFactor = -2;
        m.polygonOffsetUnits = -2;
      }
      return m;
    });
  }

  /**
   * The glowing RGB material. Geometry drawn with it must carry a `color` attribute (see
   * paintRainbow in geometry.ts): the rainbow default uses it; a state colour ignores it.
   */
  rgb(): THREE.Material {
    const { color, off } = this.rgbSettings;
    if (off)
      return this.memo(
        'rgb:off',
        () => new THREE.MeshStandardMaterial({ color: '#202226', roughness: 0.4, metalness: 0 }),
      );
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

  /**
   * Tempered glass: it absorbs a little (alpha darkens what is behind) and reflects (the
   * specular: key light highlight, environment) without that being faded by the opacity, as
   * standard transparency would. Premultiplied blending; only a trace of lit tint is added, or
   * a white interior behind it washes out. No shadows.
   */
  glass(tint = '#0d1418', opacity = 0.12): THREE.MeshStandardMaterial {
    return this.memo(`glass:${tint}:${opacity}`, () => {
      const m = new THREE.MeshStandardMaterial({
        color: tint,
        roughness: 0.05,
        metalness: 0.0,
        transparent: true,
        opacity,
        envMapIntensity: 1.0,
        depthWrite: false,
      });
      m.blending = THREE.CustomBlending;
      m.blendSrc = THREE.OneFactor;
      m.blendDst = THREE.OneMinusSrcAlphaFactor;
      m.onBeforeCompile = (shader) => {
        shader.fragmentShader = shader.fragmentShader.replace(
          '#include <opaque_fragment>',
          'gl_FragColor = vec4( totalDiffuse * diffuseColor.a * 0.2 + totalSpecular, diffuseColor.a );',
        );
      };
      m.customProgramCacheKey = () => 'glass-premultiplied-specular';
      return m;
    });
  }

  /** Hex-perforated steel mesh (front and side mesh panels): open enough to show fans behind. */
  meshPanel(color: string): THREE.MeshStandardMaterial {
    // blended, not alpha-tested: far away the mip-mapped mesh must stay 40% steel, not vanish
    return this.variant(`mesh-panel:${color}`, 'mesh', color, 0.55, 0.5, {
      alphaMap: hexMeshTexture(),
      transparent: true,
      depthWrite: false,
      side: THREE.DoubleSide,
    });
  }

  /**
   * A perforated insert seen against a dark inside (roof vent, shroud patch, rear grill): the
   * hex pattern as an opaque colour map, one layer cheaper than a see-through mesh panel.
   */
  meshInset(color: string): THREE.MeshStandardMaterial {
    return this.variant(`mesh-inset:${color}`, 'mesh-inset', color, 0.6, 0.5, { map: hexMeshTexture() });
  }

  dispose(): void {
    for (const m of this.cache.values()) m.dispose();
    this.cache.clear();
    for (const t of this.textures.values()) t?.dispose();
    this.textures.clear();
  }
}
