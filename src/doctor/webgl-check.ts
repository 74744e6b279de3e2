/**
 * Doctor: launches Chromium the way a worker does, reports the WebGL backend it really got
 * (EGL over Mesa llvmpipe, a GPU, or SwiftShader), times a probe render on the real stage, and
 * asks WebCodecs for an H.264 encoder (without one, videos take the slower x264 path).
 */
import type { Config } from '../config.js';
import { h264Bitrate, h264Codecs } from '../encode/h264-config.js';
import { resolveRenderOptions } from '../model/render-options.js';
import { toStageOptions } from '../model/stage-contract.js';
import { rendererNote, SWIFTSHADER_SLOWDOWN } from '../render/speed-note.js';
import type { CheckOutcome } from './check.js';
import { probeBuild } from './probe-build.js';

export const PROBE = { width: 512, height: 512, profile: 'cinematic' as const, frames: 16 };

export interface GpuChecks {
  webgl: CheckOutcome;
  webcodecs: CheckOutcome;
}

export async function checkWebGl(cfg: Config, chromiumPath: string, chromiumFromPackage: boolean): Promise<GpuChecks> {
  const { BrowserPool } = await import('../render/browser-pool.js');
  const { farmStageBundle } = await import('../render/stage-bundle.js');
  const { callStage } = await import('../render/call-stage.js');
  const pool = new BrowserPool({ chromiumPath, glBackend: cfg.glBackend, stage: farmStageBundle });
  try {
    return await pool.use(async ({ page, backend, gl }) => {
      const resolved = resolveRenderOptions({ format: 'sprite', width: PROBE.width, height: PROBE.height, profile: PROBE.profile });
      await callStage(page, 'renderStage.load', probeBuild(), toStageOptions({ ...resolved, frames: PROBE.frames }));
      const msPerFrame = await callStage(page, '__rfTimeFrames', PROBE.frames);
      await callStage(page, 'renderStage.dispose');
      const codec = await callStage(page, '__rfH264Codec', 1280, 720, 30, h264Bitrate(1280, 720, 30), h264Codecs(1280, 720, 30));
      const ms = Math.round(msPerFrame);
      const probe = `${PROBE.width}x${PROBE.height} ${PROBE.profile} probe: ${ms} ms/frame`;
      const data = { backend, renderer: gl.renderer, vendor: gl.vendor, webgl2: gl.webgl2, msPerFrame: +msPerFrame.toFixed(1), probe: PROBE };
      const webgl: CheckOutcome =
        backend === 'swiftshader'
          ? {
              status: 'warn',
              detail: `SwiftShader (CPU fallback, about ${SWIFTSHADER_SLOWDOWN}x slower than Mesa over EGL): ${gl.renderer}; ${probe}`,
              fix: rendererNote('swiftshader', chromiumFromPackage ? 'package' : 'system')!.replace(/^.*?: /, ''),
              data,
            }
          : { status: 'ok', detail: `${backend}: ${gl.renderer}; ${probe}`, data };
      const webcodecs: CheckOutcome = codec
        ? { status: 'ok', detail: `H.264 encoder in the page (${codec} at 1280x720): videos skip re-encoding`, data: { codec } }
        : {
            status: 'warn',
            detail: 'no H.264 in WebCodecs: videos use the slower x264 path (JPEG frames through ffmpeg)',
            fix: 'use a Chromium build with proprietary codecs (Debian/Ubuntu chromium, Google Chrome); x264 still works',
            data: { codec: null },
          };
      return { webgl, webcodecs };
    });
  } finally {
    await pool.close();
  }
}
