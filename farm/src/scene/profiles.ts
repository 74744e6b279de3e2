/**
 * What each render profile turns on (docs/design-decisions.md, "Profiles and scenes"). Measured on Mesa llvmpipe, see
 * docs/benchmarks.md for ms/frame.
 *
 *   cinematic  key-light shadows (1024 PCF), contact shadow, environment reflections,
 *              a mirror-reflective floor (half size, blurred), bloom on emissive RGB, FXAA,
 *              the preset's coloured light rig
 *   flat       clean neutral product light: white rig, small environment, contact shadow,
 *              FXAA, no shadow map, no bloom
 *   fast       minimum for speed: lights only (no environment, no shadows), no AA, no post
 *
 * Antialiasing is FXAA, not MSAA: on llvmpipe a 4x multisampled target almost doubled the
 * frame time (189 vs 107 ms at 512x512) while FXAA costs a few ms (see post.ts).
 */
import type { Profile } from '../../../src/model/render-defaults.js';

export interface ProfileSettings {
  shadowMapSize: number;
  /** PMREM size, 0 = no environment map */
  envSize: number;
  bloom: boolean;
  fxaa: boolean;
  neutralLights: boolean;
  contactShadow: boolean;
  /** the floor's mirror reflection (floor-reflection.ts), where the scene's floor reflects */
  reflection: boolean;
}

export const PROFILE_SETTINGS: Record<Profile, ProfileSettings> = {
  cinematic: {
    shadowMapSize: 1024,
    envSize: 128,
    bloom: true,
    fxaa: true,
    neutralLights: false,
    contactShadow: true,
    reflection: true,
  },
  flat: {
    shadowMapSize: 0,
    envSize: 64,
    bloom: false,
    fxaa: true,
    neutralLights: true,
    contactShadow: true,
    reflection: false,
  },
  fast: {
    shadowMapSize: 0,
    envSize: 0,
    bloom: false,
    fxaa: false,
    neutralLights: false,
    contactShadow: true,
    reflection: false,
  },
};

/** The settings of a profile (parsed by parseStageOptions: one of PROFILES). */
export function profileSettings(profile: Profile): ProfileSettings {
  return PROFILE_SETTINGS[profile];
}
