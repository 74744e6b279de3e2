/**
 * A reflective floor: a real planar mirror, not a painted gradient. Each frame the build is
 * drawn once more from the camera mirrored in the floor plane, at half the frame's size and
 * only inside the screen rectangle the floor's reflection can reach (scissor); that image is
 * blurred once at quarter size, and the floor mixes the sharp and blurred copies by distance
 * from the build (contact stays crisp, the far reflection goes soft, like a satin floor) and
 * fades it out toward the backdrop. The floor is transparent where nothing is reflected, so
 * the baked backdrop shows through and the studio stays seamless.
 *
 * Cost on llvmpipe: the mirrored pass is a quarter of the pixels of the main pass, cut further
 * by the scissor; the blur is two quarter-size passes. Everything is recomputed from the pose
 * alone, so any frame renders the same pixels whatever was drawn before it.
 */
import * as THREE from 'three';
import { MIRROR_LAYER } from './proxies.js';
import { blurMaterial } from './quad-blur.js';

const floorVertex = /* glsl */ `
uniform mat4 textureMatrix;
varying vec4 vMirror;
varying vec3 vWorld;
void main() {
  vec4 world = modelMatrix * vec4(position, 1.0);
  vWorld = world.xyz;
  vMirror = textureMatrix * world;
  gl_Position = projectionMatrix * viewMatrix * world;
}`;

const floorFragment = /* glsl */ `
uniform sampler2D tSharp; uniform sampler2D tBlur;
uniform float strength; uniform float sharpRadius; uniform float fadeRadius;
uniform vec3 tint;
varying vec4 vMirror;
varying vec3 vWorld;
void main() {
  vec2 uv = vMirror.xy / vMirror.w;
  float d = length(vWorld.xz);
  vec4 sharp = texture2D(tSharp, uv);
  vec4 soft = texture2D(tBlur, uv);
  // rough floor: the reflection blurs with distance from the contact
  vec4 r = mix(sharp, soft, smoothstep(sharpRadius * 0.35, sharpRadius, d));
  float k = strength * (1.0 - smoothstep(fadeRadius * 0.45, fadeRadius, d));
  // premultiplied: the reflected colour where something is reflected, nothing elsewhere
  gl_FragColor = vec4(r.rgb * tint, 1.0);
  #include <tonemapping_fragment>
  #include <colorspace_fragment>
  gl_FragColor = vec4(gl_FragColor.rgb * k, r.a * k);
}`;

export interface FloorReflectionOptions {
  width: number;
  height: number;
  /** floor height and the build's sweep radius, metres */
  floorY: number;
  radius: number;
  /** 0..1 how much the floor reflects (the preset's `floor.reflect`) */
  strength: number;
  /** the floor's own colour tint on the reflection (a satin floor darkens and tints it) */
  tint?: string;
}

export class FloorReflection {
  readonly mesh: THREE.Mesh;
  private readonly sharp: THREE.WebGLRenderTarget;
  private readonly blurA: THREE.WebGLRenderTarget;
  private readonly blurB: THREE.WebGLRenderTarget;
  private readonly blur: THREE.ShaderMaterial;
  private readonly material: THREE.ShaderMaterial;
  private readonly mirror = new THREE.PerspectiveCamera();
  private readonly quadScene = new THREE.Scene();
  private readonly quadCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);
  private readonly quad: THREE.Mesh;
  private readonly textureMatrix = new THREE.Matrix4();
  private readonly scissor = new THREE.Vector4();
  private readonly floorY: number;
  private readonly radius: number;

  constructor(o: FloorReflectionOptions) {
    this.floorY = o.floorY;
    this.radius = o.radius;
    const w = Math.max(8, Math.round(o.width / 2));
    const h = Math.max(8, Math.round(o.height / 2));
    // half float keeps RGB brighter than white, so reflected glow still reads as glow
    this.sharp = new THREE.WebGLRenderTarget(w, h, { type: THREE.HalfFloatType });
    const qw = Math.max(4, Math.round(w / 2));
    const qh = Math.max(4, Math.round(h / 2));
    this.blurA = new THREE.WebGLRenderTarget(qw, qh, { type: THREE.HalfFloatType, depthBuffer: false });
    this.blurB = new THREE.WebGLRenderTarget(qw, qh, { type: THREE.HalfFloatType, depthBuffer: false });
    this.blur = blurMaterial();
    this.quad = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), this.blur);
    this.quad.frustumCulled = false;
    this.quadScene.add(this.quad);

    this.material = new THREE.ShaderMaterial({
      uniforms: {
        tSharp: { value: this.sharp.texture },
        tBlur: { value: this.blurB.texture },
        textureMatrix: { value: this.textureMatrix },
        strength: { value: Math.max(0, Math.min(1, o.strength)) },
        sharpRadius: { value: o.radius * 1.2 },
        fadeRadius: { value: o.radius * 2.2 },
        tint: { value: new THREE.Color(o.tint ?? '#ffffff') },
      },
      vertexShader: floorVertex,
      fragmentShader: floorFragment,
      transparent: true,
      depthWrite: false,
      blending: THREE.CustomBlending,
      blendSrc: THREE.OneFactor,
      blendDst: THREE.OneMinusSrcAlphaFactor,
    });
    this.mesh = new THREE.Mesh(new THREE.CircleGeometry(o.radius * 2.3, 64), this.material);
    this.mesh.rotation.x = -Math.PI / 2;
    this.mesh.position.y = o.floorY + 0.0002;
    this.mesh.renderOrder = -3;
    this.mesh.name = 'floor-reflection';
    // the mirror draws the build's opaque and glowing meshes only (proxies.ts)
    this.mirror.layers.set(MIRROR_LAYER);
  }

  /**
   * Draws the mirrored build for `camera` into the reflection textures (only MIRROR_LAYER:
   * floor-level things, shadows, grid, this floor, glass, are not reflected).
   */
  update(renderer: THREE.WebGLRenderer, scene: THREE.Scene, camera: THREE.PerspectiveCamera): void {
    this.placeMirror(camera);
    // no shadows in the reflection: nobody sees them there, and the lookups cost per pixel
    const receivers: THREE.Object3D[] = [];
    scene.traverse((o) => {
      if (o.receiveShadow && o.layers.test(this.mirror.layers)) receivers.push(o);
    });
    for (const o of receivers) o.receiveShadow = false;
    const background = scene.background;
    scene.background = null;
    const clearColor = renderer.getClearColor(new THREE.Color());
    const clearAlpha = renderer.getClearAlpha();
    renderer.setClearColor(0x000000, 0);
    renderer.setRenderTarget(this.sharp);
    renderer.clear();
    this.scissorTo(camera);
    this.sharp.scissorTest = true;
    renderer.setRenderTarget(this.sharp); // picks up the scissor
    renderer.render(scene, this.mirror);
    this.sharp.scissorTest = false;
    scene.background = background;
    renderer.setClearColor(clearColor, clearAlpha);
    for (const o of receivers) o.receiveShadow = true;

    // one separable blur at quarter size
    this.blur.uniforms.tDiffuse!.value = this.sharp.texture;
    this.blur.uniforms.step!.value.set(1.5 / this.blurA.width, 0);
    this.drawQuad(renderer, this.blurA);
    this.blur.uniforms.tDiffuse!.value = this.blurA.texture;
    this.blur.uniforms.step!.value.set(0, 1.5 / this.blurA.height);
    this.drawQuad(renderer, this.blurB);
    renderer.setRenderTarget(null);
  }

  private drawQuad(renderer: THREE.WebGLRenderer, target: THREE.WebGLRenderTarget): void {
    renderer.setRenderTarget(target);
    renderer.render(this.quadScene, this.quadCamera);
  }

  /** The camera mirrored in the floor plane (as three's Reflector does), and the projective map. */
  private placeMirror(camera: THREE.PerspectiveCamera): void {
    camera.updateMatrixWorld();
    const y = this.floorY;
    const eye = new THREE.Vector3().setFromMatrixPosition(camera.matrixWorld);
    const rot = new THREE.Matrix4().extractRotation(camera.matrixWorld);
    const look = new THREE.Vector3(0, 0, -1).applyMatrix4(rot).add(eye);
    const up = new THREE.Vector3(0, 1, 0).applyMatrix4(rot);
    const m = this.mirror;
    m.position.set(eye.x, 2 * y - eye.y, eye.z);
    m.up.set(up.x, -up.y, up.z);
    m.lookAt(look.x, 2 * y - look.y, look.z);
    m.near = camera.near;
    m.far = camera.far;
    m.updateMatrixWorld();
    m.projectionMatrix.copy(camera.projectionMatrix);
    m.projectionMatrixInverse.copy(camera.projectionMatrixInverse);
    this.textureMatrix.set(0.5, 0, 0, 0.5, 0, 0.5, 0, 0.5, 0, 0, 0.5, 0.5, 0, 0, 0, 1);
    this.textureMatrix.multiply(m.projectionMatrix).multiply(m.matrixWorldInverse);
  }

  /**
   * The part of the mirror image the floor can show: the floor disc out to where the
   * reflection has faded (floor points project to the same pixel in both cameras).
   */
  private scissorTo(camera: THREE.PerspectiveCamera): void {
    const r = this.radius * 2.2;
    const p = new THREE.Vector3();
    let x0 = 1;
    let y0 = 1;
    let x1 = -1;
    let y1 = -1;
    for (let i = 0; i < 32; i++) {
      const a = (i / 32) * Math.PI * 2;
      p.set(Math.cos(a) * r, this.floorY, Math.sin(a) * r).applyMatrix4(camera.matrixWorldInverse);
      if (p.z > -camera.near) {
        // the disc reaches behind the camera: take the full width below the top of the rest
        x0 = -1;
        x1 = 1;
        y0 = -1;
        continue;
      }
      p.applyMatrix4(camera.projectionMatrix);
      x0 = Math.min(x0, p.x);
      x1 = Math.max(x1, p.x);
      y0 = Math.min(y0, p.y);
      y1 = Math.max(y1, p.y);
    }
    const w = this.sharp.width;
    const h = this.sharp.height;
    const px = (v: number, n: number) => Math.max(0, Math.min(n, Math.round(((v + 1) / 2) * n)));
    const left = Math.max(0, px(x0, w) - 1);
    const bottom = Math.max(0, px(y0, h) - 1);
    this.scissor.set(
      left,
      bottom,
      Math.max(1, Math.min(w, px(x1, w) + 1) - left),
      Math.max(1, Math.min(h, px(y1, h) + 1) - bottom),
    );
    this.sharp.scissor.copy(this.scissor);
  }

  dispose(): void {
    this.sharp.dispose();
    this.blurA.dispose();
    this.blurB.dispose();
    this.blur.dispose();
    this.material.dispose();
    this.mesh.geometry.dispose();
    this.quad.geometry.dispose();
  }
}
