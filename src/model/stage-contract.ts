/**
 * The contract between the Node side (src/render) and the stage page running in Chromium.
 * The page installs `window.renderStage` (a StageApi) once its bundle has loaded.
 * Everything crossing this boundary is JSON.
 */
import type { Category, Part } from './part.js';
import type { InteractiveState } from './interactive-state.js';
import type { ResolvedRenderOptions } from './render-options.js';

/** The parts of one build, resolved from the catalog, plus its saved interactive state. */
export interface StageBuild {
  parts: Partial<Record<Category, Part[]>>;
  state: InteractiveState | null;
}

/** What the stage needs of the resolved render options. */
export type StageOptions = Pick<
  ResolvedRenderOptions,
  | 'width'
  | 'height'
  | 'profile'
  | 'scene'
  | 'showBackground'
  | 'showGrid'
  | 'gridSettings'
  | 'winterMode'
  | 'springMode'
  | 'cameraOffsetX'
  | 'cameraZoom'
  | 'frames'
> & {
  /** transparent background (part thumbnails); default false */
  transparent?: boolean;
  /** tests only: model details to leave out ('cables', 'aio-tubes'), to show what each adds */
  omit?: string[];
  /**
   * false: load() skips the warm-up (shader compile ahead and two counted frames, no drawCalls
   * in the info); the first renderFrame compiles what it needs. Batched stills render one
   * frame per load, so the warm-up would triple their cost. Default true.
   */
  warm?: boolean;
};

export interface StageInfo {
  /** triangles in the scene, for benchmarks */
  triangles: number;
  /** draw calls of one whole frame (every pass: shadow, mirror, glow, main, post), for benchmarks */
  drawCalls?: number;
  /** non-fatal problems: odd data replaced by defaults, slots the case cannot hold ... */
  warnings: string[];
  /** the frame index of the hero angle (used for screenshots) */
  heroFrame: number;
}

export interface GlInfo {
  vendor: string;
  renderer: string;
  webgl2: boolean;
  maxTextureSize: number;
}

export interface StageApi {
  /** WebGL vendor/renderer strings (the GL self-test). Throws when WebGL is unavailable. */
  glInfo(): GlInfo;
  /** Builds the scene for a build, sizes the canvas to options.width x options.height. */
  load(build: StageBuild, options: StageOptions): Promise<StageInfo>;
  /**
   * The info of the loaded scene when it was loaded from exactly this build and these options
   * (frames render the same whatever was rendered before), else null: lets consecutive chunks of
   * one render on a worker skip the scene build (~1-2 s each).
   */
  loaded(build: StageBuild, options: StageOptions): StageInfo | null;
  /** Poses the scene at frame `index` of `options.frames` (turn angle index*360/frames) and renders it. Deterministic. */
  renderFrame(index: number): void;
  /** The canvas the frames are drawn on (for capture with toBlob / WebCodecs). */
  canvas(): HTMLCanvasElement;
  /** Frees the scene's GPU resources. */
  dispose(): void;
}

declare global {
  interface Window {
    renderStage?: StageApi;
  }
}
