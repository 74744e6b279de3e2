/**
 * H.264 settings for WebCodecs' VideoEncoder in the page (pure, unit-tested): the codec
 * strings to try and the bitrate. Chromium's software H.264 encoder has no quantizer mode
 * (isConfigSupported says no), so quality is set through the bitrate, scaled by pixel rate.
 */

/** [level_idc, max macroblocks per frame, max macroblocks per second] (H.264 table A-1). */
const LEVELS: ReadonlyArray<readonly [number, number, number]> = [
  [0x1e, 1620, 40500], // 3.0
  [0x1f, 3600, 108000], // 3.1
  [0x20, 5120, 216000], // 3.2
  [0x28, 8192, 245760], // 4.0
  [0x2a, 8704, 522240], // 4.2
  [0x32, 22080, 589824], // 5.0
  [0x33, 36864, 983040], // 5.1
  [0x34, 36864, 2073600], // 5.2
  [0x3c, 139264, 4177920], // 6.0
];

/** The lowest H.264 level that allows this size and frame rate, or null when none does. */
export function h264Level(width: number, height: number, fps: number): number | null {
  const mbw = Math.ceil(width / 16);
  const mbh = Math.ceil(height / 16);
  const fs = mbw * mbh;
  for (const [level, maxFs, maxMbps] of LEVELS) {
    // no side may exceed sqrt(8 * MaxFS) macroblocks
    const side = Math.sqrt(8 * maxFs);
    if (fs <= maxFs && fs * fps <= maxMbps && mbw <= side && mbh <= side) return level;
  }
  return null;
}

/**
 * Codec strings to try, best first: High, Main, Constrained Baseline at the needed level.
 * Empty when the size is beyond H.264's levels (the x264 fallback then encodes).
 */
export function h264Codecs(width: number, height: number, fps: number): string[] {
  const level = h264Level(width, height, fps);
  if (level === null) return [];
  const ll = level.toString(16).padStart(2, '0');
  return [`avc1.6400${ll}`, `avc1.4d00${ll}`, `avc1.42e0${ll}`];
}

/**
 * Bits per pixel per frame. Measured on DEMO-GLASS 1280x720 cinematic, frames 0/17/45/90
 * against lossless renders (SSIM / PSNR dB): 0.15 gives 2.06 MB, SSIM 0.972-0.991, PSNR
 * 39.7-44.3, on a par with the x264 path (crf 18 veryfast: 2.09 MB, 0.984-0.988, 41.1-43.2);
 * 0.10 gave 1.38 MB but SSIM 0.966 on the first (key) frame.
 */
export const H264_BITS_PER_PIXEL = 0.15;

/** Target bitrate (bits/s) for a size and frame rate; at least 1 Mbit/s for small sizes. */
export function h264Bitrate(width: number, height: number, fps: number): number {
  return Math.max(1_000_000, Math.round(width * height * fps * H264_BITS_PER_PIXEL));
}

/** Chromium runs its software H.264 encoder (OpenH264) with several threads from this area up. */
const WEBCODECS_THREADED_AREA = 640 * 480;

/**
 * Whether WebCodecs' H.264 bytes are reproducible at this size. Chromium gives OpenH264 one
 * thread per slice from 640x480 up (GetNumberOfThreadsForSoftwareEncoding in
 * media/base/video_encoder.cc: 2/4/8/16 threads by area, capped at the core count), and
 * OpenH264 then moves slice boundaries by measured thread timing: the same frames encode to
 * different bytes run to run (measured: 1280x720 and 640x480 differ, 638x480 and 512x512 do
 * not) and the slice count depends on the machine. Below that area it is one slice, one
 * thread, reproducible. Where this is false, only the x264 path (fixed threads) gives chunked
 * renders the bytes of a whole one; WebCodecs chunks still assemble to a valid, seamless video.
 */
export function webcodecsReproducible(width: number, height: number): boolean {
  return width * height < WEBCODECS_THREADED_AREA;
}
