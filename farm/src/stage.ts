/**
 * The stage page's entry (bundled by farm/build.ts): installs `window.renderStage`, the
 * StageApi of contract.ts. One WebGL renderer per page, reused across loads; each load
 * builds a StageSession. The page makes no network requests outside its own loopback origin:
 * everything is procedural except part models, fetched from the stage server that served the
 * page (`/models/<sha256>.glb`) and kept parsed across loads (models/glb-library.ts).
 */
import * as THREE from 'three';
import {
  parseStageOptions,
  type GlInfo,
  type StageApi,
  type StageBuild,
  type StageInfo,
  type StageOptions,
  type StagePass,
} from '../../src/model/stage-contract.js';
import { disposeEnvironments } from './scene/environment.js';
import { GlbLibrary } from './models/glb-library.js';
import { lodReady } from './models/model-lod.js';
import { StageSession } from './stage-session.js';
import { installCaptureHelpers } from './capture/install.js';

let canvas: HTMLCanvasElement | null = null;
let renderer: THREE.WebGLRenderer | null = null;
let session: StageSession | null = null;
const library = new GlbLibrary();

function ensureCanvas(): HTMLCanvasElement {
  if (!canvas) {
    canvas = document.createElement('canvas');
    canvas.id = 'stage';
    canvas.width = 512;
    canvas.height = 512;
    document.body.appendChild(canvas);
  }
  return canvas;
}

function ensureRenderer(): THREE.WebGLRenderer {
  if (renderer) return renderer;
  const c = ensureCanvas();
  // probe first: three's own error on a missing context is vague
  const probe = c.getContext('webgl2', {
    preserveDrawingBuffer: true,
    alpha: true,
    antialias: false,
    premultipliedAlpha: true,
  });
  if (!probe) {
    throw new Error(
      'WebGL2 is not available in this browser: start Chromium with a GL backend (e.g. --use-gl=angle --use-angle=swiftshader or gl-egl) and without --disable-gpu',
    );
  }
  try {
    renderer = new THREE.WebGLRenderer({
      canvas: c,
      context: probe,
      antialias: false, // MSAA comes from the composer's multisampled target (profiles.ts)
      alpha: true,
      premultipliedAlpha: true,
      preserveDrawingBuffer: true, // the Node side reads the frame with canvas.toBlob after renderFrame
      powerPreference: 'high-performance',
    });
  } catch (err) {
    throw new Error(`WebGL renderer could not be created: ${err instanceof Error ? err.message : String(err)}`);
  }
  renderer.setPixelRatio(1);
  return renderer;
}

function glInfo(): GlInfo {
  const gl = ensureRenderer().getContext() as WebGL2RenderingContext;
  const ext = gl.getExtension('WEBGL_debug_renderer_info');
  return {
    vendor: String(ext ? gl.getParameter(ext.UNMASKED_VENDOR_WEBGL) : gl.getParameter(gl.VENDOR)),
    renderer: String(ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)),
    webgl2: typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext,
    maxTextureSize: Number(gl.getParameter(gl.MAX_TEXTURE_SIZE)),
  };
}

/** What the live session was loaded from (JSON of build and options), for loaded(). */
let loadedKey: string | null = null;

async function load(build: StageBuild, input: StageOptions): Promise<StageInfo> {
  // the one check of the options (JSON from Node); refused options leave the last scene loaded
  const options = parseStageOptions(input);
  const r = ensureRenderer();
  session?.dispose();
  session = null;
  loadedKey = null;
  // the build's models are fetched and parsed (or taken from the library) before the scene is built
  const models = await library.templates(build?.models, partIdsOf(build));
  // the simplifier (part-model LODs, the shadow/glow proxy): WebAssembly, ready once per page
  await lodReady();
  const next = new StageSession(r, build, options, models);
  if (options.warm) await next.warm();
  session = next;
  loadedKey = JSON.stringify([build, options]);
  return {
    ...next.info,
    warnings: [...next.info.warnings],
    models: { kept: library.size, parses: library.parses, triangles: next.modelTriangles },
  };
}

/** The IDs of the parts of a build (JSON from Node: trust nothing). */
function partIdsOf(build: StageBuild): Set<string> {
  const ids = new Set<string>();
  for (const list of Object.values((build?.parts ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    for (const p of list)
      if (p && typeof p === 'object' && typeof (p as { id?: unknown }).id === 'string')
        ids.add((p as { id: string }).id);
  }
  return ids;
}

function loaded(build: StageBuild, input: StageOptions): StageInfo | null {
  if (!session || loadedKey !== JSON.stringify([build, parseStageOptions(input)])) return null;
  return { ...session.info, warnings: [...session.info.warnings] };
}

function renderFrame(index: number, skip?: readonly StagePass[]): void {
  if (!session) throw new Error('renderFrame called before load()');
  session.renderFrame(index, skip);
}

function dispose(): void {
  session?.dispose();
  session = null;
  loadedKey = null;
  disposeEnvironments();
  renderer?.renderLists.dispose();
}

const api: StageApi = {
  glInfo,
  load,
  loaded,
  renderFrame,
  canvas: () => ensureCanvas(),
  dispose,
};

// the helpers first: Node waits for renderStage (call-stage.ts waitForStage), then calls both
installCaptureHelpers(api);
window.renderStage = api;
