/**
 * The render engine, the one way anything renders (the CLI's `render`, workers, pregen, the
 * benches, tools/stage): finds Chromium and ffmpeg once (tool-paths.ts), applies the one GL and
 * sandbox policy (`glPolicy`), keeps one warm browser (BrowserPool) for every render of its
 * owner, and reports the GL backend it ended up with.
 */
import type { Config } from '../config.js';
import type { BrowserPool, GpuStatus } from './browser-pool.js';
import type { ModelSource } from './model-source.js';
import type { GlBackendName } from './chromium-args.js';
import type { RenderRequest, RenderResult } from './render-build.js';
import type { ChunkRequest, ChunkResult } from './render-chunk.js';
import type { StillsRequest } from './render-stills.js';
import type { StageBundle } from './stage-server.js';
import type { ToolLocation } from './tool-paths.js';

/** What a render needs besides the browser and ffmpeg: the build, options, outputs, where to write. */
export type EngineRequest = Omit<RenderRequest, 'pool' | 'ffmpegPath'>;
export type EngineStillsRequest = Omit<StillsRequest, 'pool'>;
/** One farm chunk: frames [start, end) of the turn (render-chunk.ts renderChunk). */
export type EngineChunkRequest = Omit<ChunkRequest, 'pool' | 'ffmpegPath'>;

export interface EngineInfo {
  backend: GlBackendName;
  glRenderer: string;
  /** whether renders draw on a GPU: the driver and renderer, or why none is used (`none found (CPU: egl llvmpipe): ...`) */
  gpu: GpuStatus;
  chromium: string;
  ffmpeg: string;
  /** where the tools came from: a system install, a configured path, or an npm package */
  chromiumSource: 'config' | 'system' | 'package';
  ffmpegSource: 'config' | 'system' | 'package';
  /** set when renders take the slow path (SwiftShader), with how to get the fast one */
  note?: string;
}

export interface RenderEngine {
  render(req: EngineRequest): Promise<RenderResult>;
  /** frames [start, end) of a render as pieces for the farm's assemble step (encode/assemble.ts) */
  renderChunk(req: EngineChunkRequest): Promise<ChunkResult>;
  /** the programs the assemble step runs (ffprobe is read lazily: a missing one throws MissingToolError here, not at start) */
  readonly tools: { ffmpeg: string; ffprobe: string };
  /** single frames as lossless PNGs in memory (a few only: tests, dev snapshots) */
  stills(req: EngineStillsRequest): Promise<Buffer[]>;
  /** launches the browser if needed and runs the GL self-test */
  info(): Promise<EngineInfo>;
  /** the warm browser itself, for measurements that drive the page directly (bench:render) */
  readonly pool: BrowserPool;
  close(): Promise<void>;
}

/** The settings the engine reads. */
export type EngineConfig = Pick<Config, 'glBackend'> &
  Partial<Pick<Config, 'chromiumPath' | 'ffmpegPath' | 'searchPath' | 'systemTools'>>;

export interface EngineOptions {
  log?: (line: string) => void;
  /** the stage page; default the farm bundle (tests of the pipeline itself may pass another) */
  stage?: () => Promise<StageBundle>;
  /**
   * Part models for builds whose `models` name them; a request's own `models` goes in front.
   * Default: the configured artifact store's (configuredModelSource, opened on first use, so an
   * engine that draws no model never opens it). null: none, a build that names a model fails
   * to load, naming the part.
   */
  models?: ModelSource | null;
}

export interface GlPolicy {
  glBackend: 'auto' | GlBackendName;
  /** the npm-packaged Chromium has no EGL backend: auto skips it there (gpu-fallback.ts launchOrder) */
  chromiumSource: ToolLocation['source'];
  noSandbox: boolean;
}

/**
 * Which WebGL backend to ask Chromium for, and whether to sandbox it: one policy for every
 * caller, so the CLI and the workers of one machine draw with the same backend.
 */
export function glPolicy(requested: 'auto' | GlBackendName, chromium: ToolLocation): GlPolicy {
  return {
    glBackend: requested,
    chromiumSource: chromium.source,
    // the page is our own bundle with every outside request blocked, so the sandbox guards
    // nothing here, and it cannot start as root or in most containers
    noSandbox: true,
  };
}

/** Finds the tools (MissingToolError naming the fix when one is missing) and prepares a warm browser, launched on first use. */
/** A whole loaded config (not a test's pick of the engine's settings): it names an artifact store. */
function isFullConfig(cfg: EngineConfig): cfg is EngineConfig & Config {
  return typeof (cfg as Partial<Config>).dataDir === 'string';
}

export async function createRenderEngine(cfg: EngineConfig, opts: EngineOptions = {}): Promise<RenderEngine> {
  // loaded here, not at the top: importing the engine's types must not load puppeteer
  const { findChromium, findFfmpeg, findFfprobe } = await import('./tool-paths.js');
  const { BrowserPool } = await import('./browser-pool.js');
  const { farmStageBundle } = await import('./stage-bundle.js');
  const { renderBuild } = await import('./render-build.js');
  const { renderChunk } = await import('./render-chunk.js');
  const { renderStills } = await import('./render-stills.js');
  const { rendererNote } = await import('./speed-note.js');
  const { configuredModelSource } = await import('./model-source.js');
  const chromium = await findChromium(cfg, cfg.searchPath);
  const ffmpeg = await findFfmpeg(cfg, cfg.searchPath);
  // only assembling needs ffprobe: an engine that just renders must not fail without it
  const ffprobe = await findFfprobe(cfg, cfg.searchPath).catch((err: unknown) => err as Error);
  const pool = new BrowserPool({
    chromiumPath: chromium.path,
    ...glPolicy(cfg.glBackend, chromium),
    stage: opts.stage ?? farmStageBundle,
    log: opts.log,
    models: opts.models !== undefined ? opts.models : isFullConfig(cfg) ? await configuredModelSource(cfg) : null,
  });
  return {
    pool,
    render: (req) => renderBuild({ pool, ffmpegPath: ffmpeg.path, ...req }),
    renderChunk: (req) => renderChunk({ pool, ffmpegPath: ffmpeg.path, ...req }),
    tools: {
      ffmpeg: ffmpeg.path,
      get ffprobe(): string {
        if (ffprobe instanceof Error) throw ffprobe;
        return ffprobe.path;
      },
    },
    stills: (req) => renderStills({ pool, ...req }),
    info: async () => {
      const i = await pool.info();
      const note = rendererNote(i.backend, chromium.source);
      return {
        backend: i.backend,
        glRenderer: i.gl.renderer,
        gpu: i.gpu,
        chromium: chromium.path,
        ffmpeg: ffmpeg.path,
        chromiumSource: chromium.source,
        ffmpegSource: ffmpeg.source,
        ...(note ? { note } : {}),
      };
    },
    close: () => pool.close(),
  };
}
