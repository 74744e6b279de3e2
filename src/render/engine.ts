/**
 * The worker's renderer: finds Chromium and ffmpeg once, keeps one warm browser (BrowserPool)
 * for every job of the process, and reports the GL backend it ended up with.
 */
import type { Config } from '../config.js';
import type { StageBuild } from '../model/stage-contract.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';
import type { RenderProgress, RenderResult } from './renderer.js';

export interface EngineRequest {
  build: StageBuild;
  options: ResolvedRenderOptions;
  outDir: string;
  signal?: AbortSignal;
  onProgress?: (p: RenderProgress) => void;
}

export interface EngineInfo {
  backend: string;
  glRenderer: string;
  chromium: string;
  ffmpeg: string;
}

export interface RenderEngine {
  render(req: EngineRequest): Promise<RenderResult>;
  /** launches the browser if needed and runs the GL self-test */
  info(): Promise<EngineInfo>;
  close(): Promise<void>;
}

export async function createRenderEngine(cfg: Config, log?: (line: string) => void): Promise<RenderEngine> {
  const { findChromium, findFfmpeg } = await import('./tool-paths.js');
  const { BrowserPool } = await import('./browser-pool.js');
  const { farmStageBundle } = await import('./stage-bundle.js');
  const { renderBuild } = await import('./renderer.js');
  const chromium = await findChromium(cfg, cfg.searchPath);
  const ffmpeg = await findFfmpeg(cfg, cfg.searchPath);
  const pool = new BrowserPool({ chromiumPath: chromium.path, glBackend: cfg.glBackend, stage: farmStageBundle, log });
  return {
    render: (req) => renderBuild({ pool, ffmpegPath: ffmpeg.path, ...req }),
    info: async () => {
      const i = await pool.info();
      return { backend: i.backend, glRenderer: i.gl.renderer, chromium: chromium.path, ffmpeg: ffmpeg.path };
    },
    close: () => pool.close(),
  };
}
