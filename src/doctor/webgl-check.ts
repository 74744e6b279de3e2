/**
 * Doctor: launches Chromium the way a worker does, reports the WebGL backend it really got
 * (a GPU over Vulkan or a vendor's EGL, EGL over Mesa llvmpipe, or SwiftShader), whether that is a
 * GPU (the `gpu` row: driver and renderer, or none found and why), times a probe render on the
 * real stage, and asks WebCodecs for an H.264 encoder (without one, videos take the slower x264 path).
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
  gpu: CheckOutcome;
  webcodecs: CheckOutcome;
}

export async function checkWebGl(cfg: Config, chromiumPath: string, chromiumFromPackage: boolean): Promise<GpuChecks> {
  const { BrowserPool } = await import('../render/browser-pool.js');
  const { farmStageBundle } = await import('../render/stage-bundle.js');
  const { callStage } = await import('../render/call-stage.js');
  const pool = new BrowserPool({
    chromiumPath,
    glBackend: cfg.glBackend,
    chromiumSource: chromiumFromPackage ? 'package' : 'system',
    stage: farmStageBundle,
  });
  try {
    return await pool.use(async ({ page, backend, gl, gpu: gpuStatus }) => {
      const resolved = resolveRenderOptions({
        format: 'sprite',
        width: PROBE.width,
        height: PROBE.height,
        profile: PROBE.profile,
      });
      await callStage(page, 'renderStage.load', probeBuild(), toStageOptions({ ...resolved, frames: PROBE.frames }));
      const msPerFrame = await callStage(page, '__rfTimeFrames', PROBE.frames);
      await callStage(page, 'renderStage.dispose');
      const codec = await callStage(
        page,
        '__rfH264Codec',
        1280,
        720,
        30,
        h264Bitrate(1280, 720, 30),
        h264Codecs(1280, 720, 30),
      );
      const ms = Math.round(msPerFrame);
      const probe = `${PROBE.width}x${PROBE.height} ${PROBE.profile} probe: ${ms} ms/frame`;
      const data = {
        backend,
        renderer: gl.renderer,
        vendor: gl.vendor,
        webgl2: gl.webgl2,
        msPerFrame: +msPerFrame.toFixed(1),
        probe: PROBE,
      };
      const webgl: CheckOutcome =
        backend === 'swiftshader'
          ? {
              status: 'warn',
              detail: `SwiftShader (CPU fallback, about ${SWIFTSHADER_SLOWDOWN}x slower than Mesa over EGL): ${gl.renderer}; ${probe}`,
              fix: rendererNote('swiftshader', chromiumFromPackage ? 'package' : 'system')!.replace(/^.*?: /, ''),
              data,
            }
          : { status: 'ok', detail: `${backend}: ${gl.renderer}; ${probe}`, data };
      // a GPU is optional: without one the row is neither a pass nor a warning
      const gpu: CheckOutcome = gpuStatus.found
        ? {
            status: 'ok',
            detail: `${gpuStatus.detail}; ${probe}`,
            data: { found: true, backend, renderer: gl.renderer, msPerFrame: data.msPerFrame },
          }
        : { status: 'info', detail: gpuStatus.detail, data: { found: false, backend, renderer: gl.renderer } };
      const webcodecs: CheckOutcome = codec
        ? {
            status: 'ok',
            detail: `H.264 encoder in the page (${codec} at 1280x720): videos skip re-encoding`,
            data: { codec },
          }
        : {
            status: 'warn',
            detail: 'no H.264 in WebCodecs: videos use the slower x264 path (JPEG frames through ffmpeg)',
            fix: 'use a Chromium build with proprietary codecs (Debian/Ubuntu chromium, Google Chrome); x264 still works',
            data: { codec: null },
          };
      return { webgl, gpu, webcodecs };
    });
  } finally {
    await pool.close();
  }
}
