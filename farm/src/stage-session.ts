/**
 * One loaded build on the stage: the scene graph, the camera, the post stack and the
 * per-frame pose. Created by stage.ts on load(); renderFrame() only turns the build (and
 * moves seasonal particles) and draws: everything else is prepared once.
 */
import * as THREE from 'three';
import type { Category, Part } from '../../src/model/part.js';
import type { ParsedStageOptions, StageBuild, StageInfo, StagePass } from '../../src/model/stage-contract.js';
import { buildBuildGroup, buildPartModel } from './build-scene.js';
import { loneModel, type ModelTemplates } from './layout/model-placement.js';
import { buildBackground } from './scene/background.js';
import { frameCamera, sweepOf } from './scene/camera.js';
import { environmentFor } from './scene/environment.js';
import { FloorReflection } from './scene/floor-reflection.js';
import { buildGrid } from './scene/grid.js';
import { buildGround } from './scene/ground.js';
import { buildLights } from './scene/lights.js';
import { presetFor } from './scene/presets.js';
import { profileSettings } from './scene/profiles.js';
import { PostStack } from './scene/post.js';
import { addProxy } from './scene/proxies.js';
import { addRgbSpill } from './scene/rgb-spill.js';
import { buildPetals, buildSnow, type SeasonalEffect } from './scene/seasonal.js';
import { countTriangles } from './util/geometry.js';
import { MaterialKit } from './util/materials.js';
import { mergeByMaterial } from './util/merge.js';
import { applyModelLods, COARSE_FACTOR, LOD_ERROR_PX, pixelSizeAt } from './models/model-lod.js';

/** Yaw that turns the window side (-x) and the front toward the camera: the hero angle. */
export const HERO_YAW = (50 * Math.PI) / 180;
const MM = 0.001;
/** The shadow/glow proxy's simplification error, in frame pixels at the nearest approach (0: none). */
const PROXY_ERROR_PX = LOD_ERROR_PX * COARSE_FACTOR;

export class StageSession {
  readonly scene = new THREE.Scene();
  readonly camera = new THREE.PerspectiveCamera();
  readonly turntable = new THREE.Group();
  readonly info: StageInfo & { drawCalls?: number };
  private post: PostStack | null = null;
  private seasonal: SeasonalEffect | null = null;
  private reflection: FloorReflection | null = null;
  private kit: MaterialKit | null = null;
  private readonly disposables: { dispose(): void }[] = [];
  /** part-model triangles before and after their LOD for this frame size (model-lod.ts) */
  modelTriangles = { before: 0, after: 0 };

  constructor(
    private readonly renderer: THREE.WebGLRenderer,
    build: StageBuild,
    /** parsed once by stage.ts (parseStageOptions): every field present and in range */
    readonly options: ParsedStageOptions,
    /** part ID -> parsed model (glb-library.ts) for the parts of `build.models` */
    models: ModelTemplates = new Map(),
  ) {
    const o = options;
    const preset = presetFor(o.scene);
    const profile = profileSettings(o.profile);
    const warnings: string[] = [];

    // the model: a whole build, or a lone part (part thumbnails)
    const lone = lonePart(build);
    let model: THREE.Object3D;
    const loneTemplate = lone && typeof lone.id === 'string' ? models.get(lone.id) : undefined;
    if (lone && loneTemplate) {
      // the part's model alone (thumbnails, `models preview`); its RGB takes the saved colour
      this.kit = new MaterialKit(rgbOf(build));
      model = loneModel(lone, loneTemplate, this.kit);
    } else if (lone) {
      model = buildPartModel(lone);
      warnings.push(...((model.userData.warnings as string[] | undefined) ?? []));
    } else {
      const built = buildBuildGroup(build, { omit: o.omit, models });
      warnings.push(...built.warnings);
      this.kit = built.kit;
      // one mesh per material for the whole build: draw calls dominate on a CPU rasteriser
      model = mergeByMaterial(built.group);
    }
    model.scale.setScalar(MM);
    const modelBox = new THREE.Box3().setFromObject(model);
    if (lone && !modelBox.isEmpty()) model.position.y -= modelBox.min.y; // stand it on the floor
    this.turntable.add(model);
    this.turntable.name = 'turntable';
    this.scene.add(this.turntable);

    const sweep = sweepOf(model);
    const floorY = sweep.minY;
    const center = new THREE.Vector3(0, (sweep.minY + sweep.maxY) / 2, 0);
    const radius = Math.hypot(sweep.radius, (sweep.maxY - sweep.minY) / 2);
    // framed before the proxy is made: part models get their LOD for this frame size first
    frameCamera(this.camera, sweep, o.width / o.height, o.cameraZoom, o.cameraOffsetX, o.width, o.height);
    const nearest = Math.max(this.camera.near, this.camera.position.distanceTo(center) - radius);
    const lod = applyModelLods(model, pixelSizeAt(this.camera, nearest, o.height) * LOD_ERROR_PX);
    this.modelTriangles = lod;
    // the shadow map and glow mask take the proxy as coarse as part models' coarse LOD
    const proxy = addProxy(model, PROXY_ERROR_PX * pixelSizeAt(this.camera, nearest, o.height));
    if (proxy) this.disposables.push(proxy.geometry, proxy.material as THREE.Material);
    // RGB light spill where it is cheap enough: cinematic only, and only when RGB is on
    if (profile.bloom && this.kit && !lone && !this.kit.rgbSettings.off) addRgbSpill(model, this.kit.rgbSettings.color);

    // renderer state for this load
    const r = this.renderer;
    r.setPixelRatio(1);
    r.setSize(o.width, o.height, true);
    r.toneMapping = THREE.ACESFilmicToneMapping;
    r.toneMappingExposure = preset.exposure;
    r.outputColorSpace = THREE.SRGBColorSpace;
    // the shadow map need not be finer than the frame: 512 for a 512 sprite, 1024 from 720p up
    const shadowMapSize =
      profile.shadowMapSize > 0
        ? Math.min(profile.shadowMapSize, Math.max(512, 2 ** Math.ceil(Math.log2(Math.max(o.width, o.height) * 0.8))))
        : 0;
    r.shadowMap.enabled = shadowMapSize > 0;
    r.shadowMap.type = THREE.PCFShadowMap;
    // drawn once per frame, on request (renderFrame), whichever pass comes first
    r.shadowMap.autoUpdate = false;
    r.setClearColor(0x000000, o.transparent ? 0 : 1);

    const lights = buildLights(preset, center, radius, shadowMapSize, profile.neutralLights);
    this.scene.add(lights.group);
    if (profile.envSize > 0) {
      this.scene.environment = environmentFor(r, o.scene, preset, profile.envSize);
      this.scene.environmentIntensity = preset.env.intensity * (profile.neutralLights ? 0.9 : 1);
    }

    if (!o.transparent) {
      this.scene.background = this.bakeBackground(buildBackground(preset, !o.showBackground, 60));
      const footprint = lone
        ? { width: 0.3, depth: 0.3 }
        : { width: (modelBox.max.x - modelBox.min.x) * 0.9, depth: (modelBox.max.z - modelBox.min.z) * 0.9 };
      const ground = buildGround(footprint, floorY, radius, preset.shadowOpacity, profile.shadowMapSize > 0);
      if (profile.contactShadow) this.turntable.add(ground);
      this.trackTree(ground);
      if (o.showGrid) {
        const grid = buildGrid(o.gridSettings, floorY);
        this.turntable.add(grid);
        this.disposables.push(grid.geometry, grid.material as THREE.Material);
      }
      if (o.winterMode || o.springMode) {
        const volume = { radius: radius * 1.8, minY: floorY, maxY: floorY + (sweep.maxY - sweep.minY) * 1.6 };
        this.seasonal = o.winterMode ? buildSnow(volume, floorY) : buildPetals(volume, floorY);
        this.scene.add(this.seasonal.world);
        this.turntable.add(this.seasonal.ground);
      }
      if (profile.reflection && preset.floor.reflect > 0 && !lone) {
        this.reflection = new FloorReflection({
          width: o.width,
          height: o.height,
          floorY,
          radius: sweep.radius,
          strength: preset.floor.reflect,
          tint: preset.floor.tint,
        });
        this.scene.add(this.reflection.mesh);
      }
    }

    if (profile.fxaa || (profile.bloom && !o.transparent)) {
      this.post = new PostStack(r, this.scene, this.camera, {
        width: o.width,
        height: o.height,
        fxaa: profile.fxaa,
        bloom: profile.bloom && !o.transparent,
      });
    }

    // the model's triangles (the shadow/glow proxy repeats them, once, for those passes)
    this.info = { triangles: countTriangles(this.scene) - (proxy ? countTriangles(proxy) : 0), warnings, heroFrame: 0 };
  }

  /**
   * Draws the sky once into a texture of the frame's size and uses it as the background.
   * The camera never moves, so the sky never changes; a per-pixel sky shader every frame
   * cost about as much as the whole build on llvmpipe.
   *
   * The sky is seen through a level copy of the camera (pitched down only slightly), so the
   * horizon sits in the upper part of the frame with sky above it, instead of being pushed
   * out of frame by the camera looking down at the build. The floor's grid and shadows fade
   * out well before that horizon, so the two perspectives never meet.
   */
  private bakeBackground(sky: THREE.Mesh): THREE.Texture {
    const { width, height } = this.options;
    const target = new THREE.WebGLRenderTarget(width, height, { type: THREE.HalfFloatType, depthBuffer: false });
    const only = new THREE.Scene();
    only.add(sky);
    const r = this.renderer;
    const previous = r.getRenderTarget();
    const level = this.camera.clone();
    level.position.set(0, 0, 0);
    level.lookAt(0, -Math.tan((3 * Math.PI) / 180), -1);
    level.updateMatrixWorld(true);
    r.setRenderTarget(target);
    r.render(only, level);
    r.setRenderTarget(previous);
    sky.geometry.dispose();
    (sky.material as THREE.Material).dispose();
    this.disposables.push(target);
    return target.texture;
  }

  /** Turns the build to frame `index` of the turn and draws it (synchronous); `skip`: passes left out (bench only). */
  renderFrame(index: number, skip?: readonly StagePass[]): void {
    const frames = this.options.frames;
    const i = Number.isFinite(index) ? Math.floor(index) : 0;
    const k = ((i % frames) + frames) % frames;
    this.turntable.rotation.y = HERO_YAW + (k / frames) * Math.PI * 2;
    this.seasonal?.update(k, frames);
    // skipped: the map of the last frame stays (its lookups in the main pass still cost)
    this.renderer.shadowMap.needsUpdate = !skip?.includes('shadow');
    if (!skip?.includes('mirror')) this.reflection?.update(this.renderer, this.scene, this.camera);
    if (this.post) this.post.render(skip);
    else this.renderer.render(this.scene, this.camera);
  }

  /** Compiles shaders ahead of the first frame so frame timings are steady; counts a frame's draw calls. */
  async warm(): Promise<void> {
    const r = this.renderer as THREE.WebGLRenderer & {
      compileAsync?: (s: THREE.Object3D, c: THREE.Camera) => Promise<unknown>;
    };
    if (r.compileAsync) await r.compileAsync(this.scene, this.camera);
    this.renderFrame(0);
    // a second frame 0 with the counters summed over every pass (the first paid for uploads)
    const info = this.renderer.info;
    info.autoReset = false;
    info.reset();
    this.renderFrame(0);
    this.info.drawCalls = info.render.calls;
    info.autoReset = true;
  }

  private trackTree(root: THREE.Object3D): void {
    root.traverse((o) => {
      const m = o as THREE.Mesh;
      if (m.isMesh) this.disposables.push(m.geometry, m.material as THREE.Material);
    });
  }

  dispose(): void {
    this.turntable.traverse((o) => {
      const m = o as THREE.Mesh;
      // part models share their geometry with the page's model library, which frees it on eviction
      if (m.isMesh && !m.userData.sharedGeometry) m.geometry.dispose();
    });
    for (const d of this.disposables) d.dispose();
    this.seasonal?.dispose();
    this.reflection?.dispose();
    this.kit?.dispose();
    this.post?.dispose();
    this.scene.clear();
  }
}

/** The build's saved RGB colour and mode, as build-scene.ts reads them. */
function rgbOf(build: StageBuild): { color: string | null; off: boolean } {
  const rgb = build?.state?.rgb;
  const color = typeof rgb?.color === 'string' && /^#[0-9a-f]{6}$/i.test(rgb.color) ? rgb.color.toLowerCase() : null;
  return { color, off: rgb?.mode === 'off' };
}

/** A build of exactly one part and no case is drawn as that part alone (thumbnails). */
export function lonePart(build: StageBuild): Part | null {
  const all: Part[] = [];
  for (const [category, list] of Object.entries((build?.parts ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    for (const p of list) if (p && typeof p === 'object') all.push({ ...(p as Part), category: category as Category });
  }
  if (all.length !== 1) return null;
  return all[0]!.category === 'PCCase' ? null : all[0]!;
}
