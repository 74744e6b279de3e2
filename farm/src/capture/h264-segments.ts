/**
 * H.264 in the page with WebCodecs, in segments of `segmentFrames`: each segment is encoded by a
 * fresh VideoEncoder (keyframe first, timestamps from the segment start) so its bytes depend
 * only on its frames, and a farm chunk of whole segments gives the bytes the whole render
 * gives. A segment starts at every index that is a multiple of segmentFrames (and at a run's
 * start). Chunks are POSTed in order under `${token}-h264`, numbered by their frame's place in
 * the run (one chunk per frame, no B-frames).
 */
import type { PageH264 } from '../../../src/model/capture-contract.js';
import { errorMessage } from '../util/error-message.js';
import { post } from './upload.js';

/** The encoder settings every segment and the support check share. */
function encoderConfig(codec: string, width: number, height: number, fps: number, bitrate: number): VideoEncoderConfig {
  return {
    codec,
    width,
    height,
    framerate: fps,
    bitrate,
    bitrateMode: 'variable',
    latencyMode: 'quality',
    avc: { format: 'annexb' },
  };
}

/** The first H.264 codec string of `codecs` this browser encodes at this size, or null (no WebCodecs, no H.264). */
export async function h264Codec(
  width: number,
  height: number,
  fps: number,
  bitrate: number,
  codecs: string[],
): Promise<string | null> {
  if (typeof VideoEncoder === 'undefined' || typeof VideoFrame === 'undefined') return null;
  for (const codec of codecs) {
    try {
      const s = await VideoEncoder.isConfigSupported(encoderConfig(codec, width, height, fps, bitrate));
      if (s.supported) return codec;
    } catch {
      // a codec string this browser cannot parse: try the next
    }
  }
  return null;
}

export interface H264Segments {
  /** the frame's timestamp: its place in its segment */
  timestamp(index: number): number;
  /** one frame's duration in microseconds */
  tick: number;
  /** encodes (and closes) `frame`; position: its place in the run (numbers its chunk); index: its frame of the turn */
  encode(frame: VideoFrame, position: number, index: number): Promise<void>;
  /** flushes the last segment, waits for every upload; resolves to the chunks encoded */
  finish(): Promise<number>;
  /** closes the open encoder (after a failure or an abort) */
  close(): void;
}

/** The run's H.264 encoder; chunks go to /frames/<token>-h264/<position>. */
export function h264Segments(token: string, cfg: PageH264): H264Segments {
  const sent: Array<Promise<void>> = [];
  const closing: Array<Promise<void>> = [];
  let failure: Error | null = null;
  let total = 0;
  let wake: (() => void) | null = null;
  let current: VideoEncoder | null = null;
  const wakeUp = () => {
    const w = wake;
    wake = null;
    if (w) w();
  };
  const fail = (err: unknown) => {
    failure = failure || new Error('webcodecs: ' + errorMessage(err));
    wakeUp();
  };
  const tick = Math.round(1e6 / cfg.fps);
  const open = (base: number): VideoEncoder => {
    let n = 0;
    const encoder = new VideoEncoder({
      output: (chunk) => {
        const bytes = new Uint8Array(chunk.byteLength);
        chunk.copyTo(bytes);
        total++;
        sent.push(post('/frames/' + token + '-h264/' + (base + n++), bytes).catch(fail));
      },
      error: fail,
    });
    encoder.ondequeue = wakeUp;
    encoder.configure(encoderConfig(cfg.codec, cfg.width, cfg.height, cfg.fps, cfg.bitrate));
    return encoder;
  };
  const close = (encoder: VideoEncoder): Promise<void> =>
    encoder
      .flush()
      .catch(fail)
      .finally(() => {
        if (encoder.state !== 'closed') encoder.close();
      });
  return {
    timestamp: (index) => (index % cfg.segmentFrames) * tick,
    tick,
    async encode(frame, position, index) {
      if (failure) {
        frame.close();
        throw failure;
      }
      const first = !current || index % cfg.segmentFrames === 0;
      try {
        if (first) {
          // the previous segment flushes while this one encodes; one at a time behind it
          if (current) closing.push(close(current));
          while (closing.length > 1) await closing.shift();
          current = open(position);
        }
        current!.encode(frame, { keyFrame: first });
      } catch (err) {
        fail(err);
      } finally {
        frame.close();
      }
      // one frame queued while the next renders: memory stays flat, the encoder never idles
      while (!failure && current!.encodeQueueSize > 1) await new Promise<void>((r) => (wake = r));
      if (failure) throw failure;
    },
    async finish() {
      if (current) closing.push(close(current));
      current = null;
      await Promise.all(closing);
      await Promise.all(sent);
      if (failure) throw failure;
      return total;
    },
    close() {
      if (current && current.state !== 'closed') current.close();
    },
  };
}
