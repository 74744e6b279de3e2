/**
 * ffmpeg arguments for turning a stream of captured frames into an MP4 (a pure builder,
 * unit-tested without running ffmpeg). The result is H.264, yuv420p (plays everywhere),
 * with the moov atom up front (+faststart) so browsers start playing before the download ends.
 */

/** How frames arrive on ffmpeg's stdin. */
export type FrameInput = 'jpeg' | 'png' | 'h264';

export interface FfmpegArgsOptions {
  input: FrameInput;
  fps: number;
  width: number;
  height: number;
  /** output file (written by ffmpeg; the caller renames it into place) */
  output: string;
  /** x264 constant rate factor: 18 is visually lossless for product turntables */
  crf?: number;
  /** x264 preset: veryfast keeps encoding well under render time on 2 cores */
  preset?: string;
}

/** The x264 encoder and its quality settings, the same for a whole MP4 and for a segment. */
function x264(o: { crf?: number; preset?: string }): string[] {
  return ['-c:v', 'libx264', '-preset', o.preset ?? 'veryfast', '-crf', String(o.crf ?? 18)];
}

/** Input and output option lists (the parts of buildFfmpegArgs before and after the input). */
export interface FfmpegOptionLists {
  inputOptions: string[];
  outputOptions: string[];
}

/** Options before and after `-i pipe:0`. */
export function buildFfmpegOptions(o: FfmpegArgsOptions): FfmpegOptionLists {
  const inputOptions =
    o.input === 'h264'
      ? // an Annex B elementary stream has no container timing: -r (not -framerate) as an input
        // option makes ffmpeg stamp exactly 1/fps per frame (avg_frame_rate 30/1, duration 4.000)
        ['-f', 'h264', '-r', String(o.fps)]
      : ['-f', 'image2pipe', '-framerate', String(o.fps), '-c:v', o.input === 'jpeg' ? 'mjpeg' : 'png'];
  const codec =
    o.input === 'h264'
      ? ['-c:v', 'copy']
      : [
          ...x264(o),
          '-pix_fmt',
          'yuv420p',
          // exact size: the canvas is already the requested size; even sizes are checked upstream
          '-vf',
          `scale=${o.width}:${o.height}:flags=bicubic,format=yuv420p`,
        ];
  const outputOptions = [...codec, '-r', String(o.fps), '-an', '-movflags', '+faststart', '-f', 'mp4'];
  return { inputOptions, outputOptions };
}

/** The complete ffmpeg argv (without the program), frames read from stdin. */
export function buildFfmpegArgs(o: FfmpegArgsOptions): string[] {
  const { inputOptions, outputOptions } = buildFfmpegOptions(o);
  return ['-hide_banner', '-loglevel', 'error', '-y', ...inputOptions, '-i', 'pipe:0', ...outputOptions, o.output];
}

/** One x264 video segment: frames in, raw Annex B H.264 out (stdout). */
export interface SegmentArgsOptions {
  input: 'jpeg' | 'png';
  fps: number;
  width: number;
  height: number;
  crf?: number;
  preset?: string;
}

/**
 * x264 threads for a segment. Fixed, not ffmpeg's auto (= cores): x264's output depends on
 * its thread count, and a segment must have the same bytes on every worker.
 */
export const SEGMENT_THREADS = 2;

/**
 * The ffmpeg argv (without the program) that encodes one segment of frames from stdin to a
 * raw H.264 elementary stream on stdout: an IDR first (a fresh encoder), no B-frames (a raw
 * stream carries no timestamps, and the remux stamps frames in decode order), headers in-band.
 */
export function buildSegmentArgs(o: SegmentArgsOptions): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    // scaling in one thread too: its slicing is the one other thread-dependent step
    '-filter_threads',
    '1',
    '-f',
    'image2pipe',
    '-framerate',
    String(o.fps),
    '-c:v',
    o.input === 'jpeg' ? 'mjpeg' : 'png',
    '-threads',
    '1',
    '-i',
    'pipe:0',
    ...x264(o),
    '-bf',
    '0',
    '-threads',
    String(SEGMENT_THREADS),
    '-pix_fmt',
    'yuv420p',
    '-vf',
    `scale=${o.width}:${o.height}:flags=bicubic,format=yuv420p`,
    '-an',
    '-f',
    'h264',
    'pipe:1',
  ];
}
