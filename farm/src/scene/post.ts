/**
 * The post stack, built for a CPU rasteriser. The scene is drawn straight to the canvas
 * (tone mapping and sRGB in the material shaders); then, when asked:
 *
 *   bloom  a selective glow: the RGB parts alone (everything else black, so they are still
 *          occluded) drawn at a quarter of the resolution, blurred there (a tight halo) and
 *          again at an eighth (a wide soft one), both added on top.
 *   fxaa   the frame copied to a texture and redrawn through FXAA; with bloom, the glow is
 *          added in that same pass (one full-screen pass, not two).
 *
 * Why not EffectComposer + UnrealBloomPass + MSAA: on llvmpipe each half-float full-screen
 * pass cost ~20 ms at 512x512 and 4x MSAA nearly doubled the frame; this stack costs a few
 * ms. Everything is deterministic (no temporal accumulation, no noise).
 *
 * Until 2026-11-26 the glow never reached the picture: its additive pass wrote alpha 0 and
 * three's AdditiveBlending (not premultiplied) weights the source by its alpha, so the mask
 * and blurs were paid for every cinematic frame and added nothing (bench:render's per-pass
 * costs found it: leaving bloom out changed no pixel).
 */
import * as THREE from 'three';
import { FXAAShader } from 'three/examples/jsm/shaders/FXAAShader.js';
import type { StagePass } from '../../../src/model/stage-contract.js';
import { GLOW_LAYER } from './proxies.js';
import { blurMaterial, QUAD_VERTEX } from './quad-blur.js';

export interface PostOptions {
  width: number;
  height: number;
  fxaa: boolean;
  bloom: boolean;
  bloomStrength?: number;
}

const addFragment = /* glsl */ `
uniform sampler2D tGlow; uniform sampler2D tWide; uniform float strength; uniform float wide;
varying vec2 vUv;
void main() { gl_FragColor = vec4(texture2D(tGlow, vUv).rgb * strength + texture2D(tWide, vUv).rgb * wide, 0.0); }`;

/** The early-out of three's FXAA as FXAAShader writes it (checked: a new three that changes it fails loudly). */
const FXAA_NEIGHBOURHOOD =
  /LuminanceData luminance = SampleLuminanceNeighborhood\( tex2D, texSize, uv \);\s*if \( ShouldSkipPixel\( luminance \) \) \{\s*return Sample\( tex2D, uv \);\s*\}/;
const FXAA_MAIN = 'gl_FragColor = ApplyFXAA( tDiffuse, resolution.xy, vUv );';

/**
 * three's FXAA with the same result per pixel for fewer texture reads, and optionally the glow
 * added to its output. Most pixels are flat and skip: they now read the centre and its four
 * neighbours (5 reads) instead of all nine neighbours and the centre again (10), and the four
 * diagonals are read only for the pixels FXAA keeps.
 */
export function fxaaFragment(glow: boolean): string {
  const lazy = `vec4 centre = Sample( tex2D, uv );
      LuminanceData luminance;
      luminance.m = dot( centre.rgb, vec3( 0.3, 0.59, 0.11 ) );
      luminance.n = SampleLuminance( tex2D, texSize, uv, 0.0, 1.0 );
      luminance.e = SampleLuminance( tex2D, texSize, uv, 1.0, 0.0 );
      luminance.s = SampleLuminance( tex2D, texSize, uv, 0.0, -1.0 );
      luminance.w = SampleLuminance( tex2D, texSize, uv, -1.0, 0.0 );
      luminance.highest = max( max( max( max( luminance.n, luminance.e ), luminance.s ), luminance.w ), luminance.m );
      luminance.lowest = min( min( min( min( luminance.n, luminance.e ), luminance.s ), luminance.w ), luminance.m );
      luminance.contrast = luminance.highest - luminance.lowest;
      if ( ShouldSkipPixel( luminance ) ) return centre;
      luminance.ne = SampleLuminance( tex2D, texSize, uv, 1.0, 1.0 );
      luminance.nw = SampleLuminance( tex2D, texSize, uv, -1.0, 1.0 );
      luminance.se = SampleLuminance( tex2D, texSize, uv, 1.0, -1.0 );
      luminance.sw = SampleLuminance( tex2D, texSize, uv, -1.0, -1.0 );`;
  const source = FXAAShader.fragmentShader;
  if (!FXAA_NEIGHBOURHOOD.test(source) || !source.includes(FXAA_MAIN)) {
    throw new Error('three FXAAShader changed: post.ts fxaaFragment no longer matches its early-out');
  }
  let out = source.replace(FXAA_NEIGHBOURHOOD, lazy);
  if (glow) {
    out =
      `uniform sampler2D tGlow; uniform sampler2D tWide; uniform float strength; uniform float wide;\n${out}`.replace(
        FXAA_MAIN,
        `${FXAA_MAIN}\n      gl_FragColor.rgb += texture2D( tGlow, vUv ).rgb * strength + texture2D( tWide, vUv ).rgb * wide;`,
      );
  }
  return out;
}

export class PostStack {
  private readonly quadScene = new THREE.Scene();
  private readonly quadCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);
  private readonly quad: THREE.Mesh;
  private readonly frame: THREE.FramebufferTexture | null;
  private readonly fxaa: THREE.ShaderMaterial | null;
  private readonly fxaaGlow: THREE.ShaderMaterial | null;
  private readonly glow: {
    a: THREE.WebGLRenderTarget;
    b: THREE.WebGLRenderTarget;
    c: THREE.WebGLRenderTarget;
    d: THREE.WebGLRenderTarget;
    blur: THREE.ShaderMaterial;
    add: THREE.ShaderMaterial;
    uniforms: Record<string, THREE.IUniform>;
  } | null;

  constructor(
    private readonly renderer: THREE.WebGLRenderer,
    private readonly scene: THREE.Scene,
    private readonly camera: THREE.Camera,
    o: PostOptions,
  ) {
    this.quad = new THREE.Mesh(new THREE.PlaneGeometry(2, 2));
    this.quad.frustumCulled = false;
    this.quadScene.add(this.quad);
    if (o.bloom) {
      const w = Math.max(8, Math.round(o.width / 4));
      const h = Math.max(8, Math.round(o.height / 4));
      const a = new THREE.WebGLRenderTarget(w, h);
      const b = new THREE.WebGLRenderTarget(w, h, { depthBuffer: false });
      const c = new THREE.WebGLRenderTarget(Math.max(4, w >> 1), Math.max(4, h >> 1), { depthBuffer: false });
      const d = new THREE.WebGLRenderTarget(Math.max(4, w >> 1), Math.max(4, h >> 1), { depthBuffer: false });
      const blur = blurMaterial();
      // the glow's uniforms, shared by the add pass and the FXAA pass that adds it
      const uniforms = {
        tGlow: { value: a.texture },
        tWide: { value: d.texture },
        strength: { value: o.bloomStrength ?? 0.9 },
        wide: { value: (o.bloomStrength ?? 0.9) * 0.8 },
      };
      const add = new THREE.ShaderMaterial({
        uniforms,
        vertexShader: QUAD_VERTEX,
        fragmentShader: addFragment,
        depthTest: false,
        depthWrite: false,
        transparent: true,
        // colour added as is, alpha kept (AdditiveBlending would weight it by the source alpha, 0)
        blending: THREE.CustomBlending,
        blendEquation: THREE.AddEquation,
        blendSrc: THREE.OneFactor,
        blendDst: THREE.OneFactor,
        blendSrcAlpha: THREE.ZeroFactor,
        blendDstAlpha: THREE.OneFactor,
      });
      this.glow = { a, b, c, d, blur, add, uniforms };
    } else {
      this.glow = null;
    }
    if (o.fxaa) {
      this.frame = new THREE.FramebufferTexture(o.width, o.height);
      const uniforms = {
        tDiffuse: { value: this.frame },
        resolution: { value: new THREE.Vector2(1 / o.width, 1 / o.height) },
        ...(this.glow?.uniforms ?? {}),
      };
      const fxaa = (glow: boolean) =>
        new THREE.ShaderMaterial({
          uniforms,
          vertexShader: QUAD_VERTEX,
          fragmentShader: fxaaFragment(glow),
          depthTest: false,
          depthWrite: false,
          blending: THREE.NoBlending,
        });
      this.fxaa = fxaa(false);
      // the same pass with the glow added, for frames that drew the glow
      this.fxaaGlow = this.glow ? fxaa(true) : null;
    } else {
      this.frame = null;
      this.fxaa = null;
      this.fxaaGlow = null;
    }
  }

  /** Draws the scene and the post effects to the canvas; `skip`: effects left out (bench only). */
  render(skip?: readonly StagePass[]): void {
    const r = this.renderer;
    const glow = this.glow && !skip?.includes('bloom');
    if (glow) this.renderGlowMask();
    r.setRenderTarget(null);
    r.render(this.scene, this.camera);
    const autoClear = r.autoClear;
    r.autoClear = false;
    if (this.fxaa && this.frame && !skip?.includes('fxaa')) {
      r.copyFramebufferToTexture(this.frame);
      // the glow goes on in the FXAA pass itself when there is one
      this.drawQuad(glow && this.fxaaGlow ? this.fxaaGlow : this.fxaa);
    } else if (glow) this.drawQuad(this.glow!.add);
    r.autoClear = autoClear;
  }

  private drawQuad(material: THREE.Material, target: THREE.WebGLRenderTarget | null = null): void {
    this.quad.material = material;
    this.renderer.setRenderTarget(target);
    this.renderer.render(this.quadScene, this.quadCamera);
  }

  /**
   * Glowing parts in colour, the build's proxy (every other opaque surface) black, at quarter
   * size; then blurred. Both are on GLOW_LAYER (proxies.ts), so the camera sees just them.
   */
  private renderGlowMask(): void {
    const g = this.glow!;
    const r = this.renderer;
    const layers = this.camera.layers.mask;
    this.camera.layers.set(GLOW_LAYER);
    const background = this.scene.background;
    this.scene.background = null;
    const clearAlpha = r.getClearAlpha();
    const clearColor = r.getClearColor(new THREE.Color());
    r.setClearColor(0x000000, 1);
    // leave the frame's shadow update to a full pass
    const pending = r.shadowMap.needsUpdate;
    r.shadowMap.needsUpdate = false;
    r.setRenderTarget(g.a);
    r.clear();
    r.render(this.scene, this.camera);
    r.shadowMap.needsUpdate = pending;
    r.setClearColor(clearColor, clearAlpha);
    this.scene.background = background;
    this.camera.layers.mask = layers;

    // tight halo at quarter size (a -> b -> a), then a wide one at an eighth (a -> c -> d)
    const pass = (from: THREE.WebGLRenderTarget, to: THREE.WebGLRenderTarget, dx: number, dy: number) => {
      g.blur.uniforms.tDiffuse!.value = from.texture;
      g.blur.uniforms.step!.value.set(dx / from.width, dy / from.height);
      this.drawQuad(g.blur, to);
    };
    pass(g.a, g.b, 1, 0);
    pass(g.b, g.a, 0, 1);
    pass(g.a, g.c, 2, 0);
    pass(g.c, g.d, 0, 1.5);
  }

  dispose(): void {
    this.quad.geometry.dispose();
    this.frame?.dispose();
    this.fxaa?.dispose();
    this.fxaaGlow?.dispose();
    if (this.glow) {
      this.glow.a.dispose();
      this.glow.b.dispose();
      this.glow.c.dispose();
      this.glow.d.dispose();
      this.glow.blur.dispose();
      this.glow.add.dispose();
    }
  }
}
