/**
 * The 11 scene presets (docs/design-decisions.md, "Profiles and scenes"), all procedural: sky/backdrop colours and an
 * optional horizon silhouette (drawn by background.ts), the light rig (lights.ts) and the
 * environment the reflections come from (environment.ts). Lights are fixed relative to the
 * camera; directions are in camera-aligned world space (camera on +z looking at -z).
 */
import type { Scene } from '../../../src/model/render-defaults.js';

export type Silhouette = 'none' | 'hills' | 'trees' | 'skyline' | 'windows' | 'columns';

export interface LightSpec {
  color: string;
  intensity: number;
  /** direction the light comes from (need not be normalised) */
  dir: [number, number, number];
}

export interface ScenePreset {
  sky: {
    top: string;
    horizon: string;
    ground: string;
    sun: string;
    sunDir: [number, number, number];
    sunGlow: number;
    stars: boolean;
  };
  silhouette: Silhouette;
  silhouetteColor: string;
  /** vertical gradient used when showBackground is false (a plain backdrop) */
  plain: { top: string; bottom: string };
  key: LightSpec;
  fill: LightSpec;
  rim: LightSpec;
  hemi: { sky: string; ground: string; intensity: number };
  /** procedural environment: gradient plus bright panels (softboxes, sun, windows) */
  env: { top: string; horizon: string; bottom: string; panels: LightSpec[]; intensity: number };
  exposure: number;
  /** how dark shadows fall on the ground */
  shadowOpacity: number;
  /** the floor's mirror reflection (cinematic): 0 = matte (grass, earth), up to 1; its tint */
  floor: { reflect: number; tint: string };
}

const softboxes = (k = 1): LightSpec[] => [
  { color: '#ffffff', intensity: 6 * k, dir: [-1, 0.6, 0.8] },
  { color: '#ffffff', intensity: 3 * k, dir: [1, 0.4, 0.6] },
  { color: '#ffffff', intensity: 4 * k, dir: [0, 1, -0.4] },
];

export const PRESETS: Record<Scene, ScenePreset> = {
  sunset: {
    sky: {
      top: '#24305c',
      horizon: '#ff9459',
      ground: '#3b2a2b',
      sun: '#ffb36b',
      sunDir: [0.55, 0.06, -1],
      sunGlow: 1.2,
      stars: false,
    },
    silhouette: 'hills',
    silhouetteColor: '#2e2130',
    plain: { top: '#3a3350', bottom: '#e0a07c' },
    key: { color: '#ffc08a', intensity: 2.6, dir: [-0.7, 0.55, 0.7] },
    fill: { color: '#6f7fc0', intensity: 0.7, dir: [0.8, 0.3, 0.6] },
    rim: { color: '#ff8444', intensity: 2.2, dir: [0.6, 0.25, -1] },
    hemi: { sky: '#ffb08a', ground: '#3a2830', intensity: 0.55 },
    env: {
      top: '#2a3566',
      horizon: '#ff9a5e',
      bottom: '#2c2226',
      panels: [{ color: '#ffb36b', intensity: 14, dir: [0.55, 0.06, -1] }],
      intensity: 0.9,
    },
    exposure: 1.0,
    shadowOpacity: 0.45,
    floor: { reflect: 0.12, tint: '#e8c8b8' },
  },
  dawn: {
    sky: {
      top: '#7fa3d6',
      horizon: '#ffd3bd',
      ground: '#6d6f5e',
      sun: '#ffe0c2',
      sunDir: [-0.6, 0.12, -1],
      sunGlow: 0.8,
      stars: false,
    },
    silhouette: 'hills',
    silhouetteColor: '#8a8aa0',
    plain: { top: '#b8c8e6', bottom: '#f6e2d8' },
    key: { color: '#ffe4cc', intensity: 2.4, dir: [-0.7, 0.6, 0.7] },
    fill: { color: '#a8bde8', intensity: 0.9, dir: [0.8, 0.4, 0.6] },
    rim: { color: '#ffc6a8', intensity: 1.6, dir: [-0.6, 0.3, -1] },
    hemi: { sky: '#cfe0ff', ground: '#6a6458', intensity: 0.7 },
    env: {
      top: '#86a8dc',
      horizon: '#ffd9c4',
      bottom: '#5e6152',
      panels: [{ color: '#ffe0c2', intensity: 10, dir: [-0.6, 0.12, -1] }],
      intensity: 0.9,
    },
    exposure: 1.0,
    shadowOpacity: 0.35,
    floor: { reflect: 0.12, tint: '#f0e4dc' },
  },
  night: {
    sky: {
      top: '#03050c',
      horizon: '#18223d',
      ground: '#07080c',
      sun: '#c8d6ff',
      sunDir: [-0.5, 0.5, -1],
      sunGlow: 0.35,
      stars: true,
    },
    silhouette: 'trees',
    silhouetteColor: '#05060a',
    plain: { top: '#05070f', bottom: '#1a2236' },
    key: { color: '#a9bcff', intensity: 2.2, dir: [-0.7, 0.7, 0.6] },
    fill: { color: '#2c3766', intensity: 0.6, dir: [0.8, 0.3, 0.6] },
    rim: { color: '#7a62ff', intensity: 2.2, dir: [0.5, 0.35, -1] },
    hemi: { sky: '#3a4a80', ground: '#0a0b10', intensity: 0.7 },
    env: {
      top: '#070a16',
      horizon: '#1c2748',
      bottom: '#050608',
      panels: [{ color: '#b9c8ff', intensity: 4, dir: [-0.5, 0.5, -1] }],
      intensity: 0.8,
    },
    exposure: 1.15,
    shadowOpacity: 0.5,
    floor: { reflect: 0.3, tint: '#b8c4ff' },
  },
  warehouse: {
    sky: {
      top: '#37352f',
      horizon: '#857c6c',
      ground: '#4a4540',
      sun: '#ffd9a0',
      sunDir: [0, 1, 0],
      sunGlow: 0,
      stars: false,
    },
    silhouette: 'windows',
    silhouetteColor: '#2a2825',
    plain: { top: '#4a463f', bottom: '#9a9080' },
    key: { color: '#ffdcaa', intensity: 2.6, dir: [-0.6, 0.8, 0.6] },
    fill: { color: '#b8c4d8', intensity: 0.8, dir: [0.8, 0.4, 0.6] },
    rim: { color: '#ffd08a', intensity: 1.6, dir: [0.3, 0.5, -1] },
    hemi: { sky: '#d8c8a8', ground: '#3a362f', intensity: 0.6 },
    env: {
      top: '#3a3731',
      horizon: '#8a806e',
      bottom: '#3f3b35',
      panels: [
        { color: '#ffe2b0', intensity: 8, dir: [-0.6, 0.8, 0.4] },
        { color: '#ffe2b0', intensity: 8, dir: [0.6, 0.8, -0.4] },
        { color: '#dfe8ff', intensity: 5, dir: [1, 0.2, 0] },
      ],
      intensity: 1.0,
    },
    exposure: 1.0,
    shadowOpacity: 0.45,
    floor: { reflect: 0.16, tint: '#e0d8c8' },
  },
  forest: {
    sky: {
      top: '#8fb6a0',
      horizon: '#dbe7c9',
      ground: '#3c4a2c',
      sun: '#fff2d0',
      sunDir: [-0.4, 0.7, -1],
      sunGlow: 0.5,
      stars: false,
    },
    silhouette: 'trees',
    silhouetteColor: '#24361f',
    plain: { top: '#9fbfa5', bottom: '#e3ecd6' },
    key: { color: '#fff0d4', intensity: 2.3, dir: [-0.6, 0.8, 0.5] },
    fill: { color: '#86ad80', intensity: 0.9, dir: [0.8, 0.3, 0.6] },
    rim: { color: '#e8ffd0', intensity: 1.2, dir: [0.4, 0.5, -1] },
    hemi: { sky: '#d6ecc8', ground: '#2f3b22', intensity: 0.7 },
    env: {
      top: '#a6c8b0',
      horizon: '#d9e6c6',
      bottom: '#34402a',
      panels: [{ color: '#fff2d0', intensity: 8, dir: [-0.4, 0.7, -1] }],
      intensity: 0.9,
    },
    exposure: 1.0,
    shadowOpacity: 0.4,
    floor: { reflect: 0, tint: '#ffffff' },
  },
  apartment: {
    sky: {
      top: '#e6dfd3',
      horizon: '#d6c9b6',
      ground: '#8a6d52',
      sun: '#fff4e0',
      sunDir: [-1, 0.3, -0.3],
      sunGlow: 0.4,
      stars: false,
    },
    silhouette: 'windows',
    silhouetteColor: '#b9ab98',
    plain: { top: '#e8e0d4', bottom: '#f6f1ea' },
    key: { color: '#fff1dc', intensity: 2.4, dir: [-0.8, 0.5, 0.5] },
    fill: { color: '#d2e0ff', intensity: 0.9, dir: [0.8, 0.4, 0.6] },
    rim: { color: '#ffe6c4', intensity: 1.2, dir: [0.4, 0.4, -1] },
    hemi: { sky: '#fff6ea', ground: '#7a604a', intensity: 0.75 },
    env: {
      top: '#efe9df',
      horizon: '#d9ccb9',
      bottom: '#7d634b',
      panels: [
        { color: '#fff8ea', intensity: 9, dir: [-1, 0.3, -0.3] },
        { color: '#fff8ea', intensity: 5, dir: [-1, 0.3, 0.5] },
      ],
      intensity: 1.0,
    },
    exposure: 1.0,
    shadowOpacity: 0.3,
    floor: { reflect: 0.22, tint: '#f0dcc4' },
  },
  // the default: a bright product studio, a light seamless backdrop (sky, horizon and floor
  // nearly one tone so no horizon line shows), a big soft key from the front left, a cool
  // fill, a strong rim from behind, and a room of softboxes for reflections
  studio: {
    sky: {
      top: '#f3f4f6',
      horizon: '#e9ebee',
      ground: '#e2e4e8',
      sun: '#ffffff',
      sunDir: [0, 1, 0],
      sunGlow: 0,
      stars: false,
    },
    silhouette: 'none',
    silhouetteColor: '#000000',
    plain: { top: '#eceef1', bottom: '#f7f8f9' },
    key: { color: '#fffaf2', intensity: 2.2, dir: [-0.75, 0.6, 0.7] },
    fill: { color: '#e6eeff', intensity: 0.8, dir: [0.9, 0.35, 0.6] },
    rim: { color: '#ffffff', intensity: 2.0, dir: [0.35, 0.55, -1] },
    hemi: { sky: '#ffffff', ground: '#b9bcc2', intensity: 0.5 },
    env: {
      top: '#ffffff',
      horizon: '#dfe2e6',
      bottom: '#9da1a8',
      panels: [
        { color: '#ffffff', intensity: 7, dir: [-1, 0.6, 0.8] },
        { color: '#ffffff', intensity: 4, dir: [1, 0.4, 0.6] },
        { color: '#ffffff', intensity: 6, dir: [0, 1, -0.2] },
        { color: '#ffffff', intensity: 4, dir: [0.2, 0.3, -1] },
      ],
      intensity: 0.6,
    },
    exposure: 0.95,
    shadowOpacity: 0.32,
    floor: { reflect: 0.6, tint: '#f2f4f8' },
  },
  studio_v2: {
    sky: {
      top: '#dfe3e8',
      horizon: '#f2f3f5',
      ground: '#e6e8eb',
      sun: '#ffffff',
      sunDir: [0, 1, 0],
      sunGlow: 0,
      stars: false,
    },
    silhouette: 'none',
    silhouetteColor: '#000000',
    plain: { top: '#c9d2dc', bottom: '#f1f3f6' },
    key: { color: '#ffffff', intensity: 2.2, dir: [-0.6, 0.8, 0.6] },
    fill: { color: '#ffffff', intensity: 1.2, dir: [0.9, 0.4, 0.7] },
    rim: { color: '#ffffff', intensity: 1.4, dir: [0.2, 0.6, -1] },
    hemi: { sky: '#ffffff', ground: '#b8bcc2', intensity: 0.9 },
    env: { top: '#f4f5f7', horizon: '#e3e6ea', bottom: '#c9ccd1', panels: softboxes(0.8), intensity: 1.0 },
    exposure: 1.0,
    shadowOpacity: 0.28,
    floor: { reflect: 0.32, tint: '#f4f6f8' },
  },
  city: {
    sky: {
      top: '#141b31',
      horizon: '#d98566',
      ground: '#26282e',
      sun: '#ffb58a',
      sunDir: [-0.3, 0.05, -1],
      sunGlow: 0.7,
      stars: false,
    },
    silhouette: 'skyline',
    silhouetteColor: '#161a26',
    plain: { top: '#1d2438', bottom: '#b77a66' },
    key: { color: '#ffd0a6', intensity: 2.4, dir: [-0.7, 0.55, 0.7] },
    fill: { color: '#5d7bc2', intensity: 0.8, dir: [0.8, 0.3, 0.6] },
    rim: { color: '#62b6ff', intensity: 2.2, dir: [0.6, 0.3, -1] },
    hemi: { sky: '#ffb894', ground: '#22252c', intensity: 0.5 },
    env: {
      top: '#1a2240',
      horizon: '#d9896a',
      bottom: '#1e2026',
      panels: [
        { color: '#ffb58a', intensity: 10, dir: [-0.3, 0.05, -1] },
        { color: '#7fc4ff', intensity: 4, dir: [1, 0.1, 0.3] },
      ],
      intensity: 0.9,
    },
    exposure: 1.05,
    shadowOpacity: 0.45,
    floor: { reflect: 0.26, tint: '#c8d0e8' },
  },
  park: {
    sky: {
      top: '#5f9be0',
      horizon: '#cfe5f6',
      ground: '#5c8843',
      sun: '#fffbe8',
      sunDir: [-0.4, 0.85, -0.6],
      sunGlow: 0.6,
      stars: false,
    },
    silhouette: 'trees',
    silhouetteColor: '#3f6a34',
    plain: { top: '#a9c9ec', bottom: '#eef5fb' },
    key: { color: '#fffaea', intensity: 2.8, dir: [-0.5, 0.9, 0.5] },
    fill: { color: '#a8c8ff', intensity: 0.9, dir: [0.8, 0.4, 0.6] },
    rim: { color: '#fffbe8', intensity: 1.4, dir: [0.3, 0.6, -1] },
    hemi: { sky: '#cfe6ff', ground: '#4d6e38', intensity: 0.8 },
    env: {
      top: '#6aa4e8',
      horizon: '#d2e8f8',
      bottom: '#557f3d',
      panels: [{ color: '#fffbe8', intensity: 12, dir: [-0.4, 0.85, -0.6] }],
      intensity: 0.9,
    },
    exposure: 1.0,
    shadowOpacity: 0.4,
    floor: { reflect: 0, tint: '#ffffff' },
  },
  lobby: {
    sky: {
      top: '#c8bfb2',
      horizon: '#efe7da',
      ground: '#b6ab9b',
      sun: '#fff2dc',
      sunDir: [0, 1, 0],
      sunGlow: 0,
      stars: false,
    },
    silhouette: 'columns',
    silhouetteColor: '#a89c8a',
    plain: { top: '#d8d0c4', bottom: '#f3eee6' },
    key: { color: '#fff0d8', intensity: 2.4, dir: [-0.6, 0.8, 0.6] },
    fill: { color: '#e8eeff', intensity: 1.0, dir: [0.8, 0.4, 0.6] },
    rim: { color: '#ffe2b8', intensity: 1.6, dir: [0.3, 0.5, -1] },
    hemi: { sky: '#fff4e4', ground: '#8c8070', intensity: 0.8 },
    env: {
      top: '#d6cdbf',
      horizon: '#f0e8dc',
      bottom: '#a89c8a',
      panels: [
        { color: '#fff0d8', intensity: 7, dir: [0, 1, 0] },
        { color: '#fff0d8', intensity: 5, dir: [-1, 0.4, -0.6] },
      ],
      intensity: 1.0,
    },
    exposure: 1.0,
    shadowOpacity: 0.3,
    floor: { reflect: 0.3, tint: '#f4ece0' },
  },
};

/** The preset of a scene (parsed by parseStageOptions: one of SCENES). */
export function presetFor(scene: Scene): ScenePreset {
  return PRESETS[scene];
}
