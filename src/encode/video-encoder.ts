/**
 * Streams frames into ffmpeg's stdin as they are captured, so a video never holds more than a
 * couple of frames in memory. `write` waits for the pipe to drain: that backpressure reaches
 * the page, which stops rendering ahead of the encoder. The command lines are exactly
 * buildFfmpegArgs / buildSegmentArgs (ffmpeg-args.ts), the builders the unit tests check.
 */
import { spawn } from 'node:child_process';
import { PassThrough, type Writable } from 'node:stream';
import { buildFfmpegArgs, buildSegmentArgs, type FfmpegArgsOptions, type SegmentArgsOptions } from './ffmpeg-args.js';

/** A running ffmpeg process fed through `write`. */
export interface VideoEncoder {
  write(frame: Buffer): Promise<void>;
  /** Closes stdin and waits for ffmpeg to finish the file. */
  finish(): Promise<void>;
  /** Kills ffmpeg (cancel or failure); safe to call more than once. */
  kill(): void;
}

/** Where raw H.264 goes in frame order: the remux ffmpeg (a VideoEncoder) or a chunk file. */
export type H264Sink = VideoEncoder;

interface FfmpegProcess {
  write(frame: Buffer): Promise<void>;
  /** resolves with stdout when it was collected, else an empty buffer */
  finish(): Promise<Buffer>;
  kill(): void;
}

/**
 * Writes `bytes` and, when the stream's buffer is full, waits for it to drain: the backpressure
 * that keeps the page from rendering ahead of the sink. A stream that closes first rejects with `closed()`.
 */
export async function writeDrained(stream: Writable, bytes: Buffer, closed: () => Error): Promise<void> {
  if (stream.write(bytes)) return;
  await new Promise<void>((resolve, reject) => {
    const onDrain = () => {
      stream.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      stream.off('drain', onDrain);
      reject(closed());
    };
    stream.once('drain', onDrain);
    stream.once('close', onClose);
  });
}

function spawnFfmpeg(ffmpegPath: string, args: string[], collectStdout: boolean): FfmpegProcess {
  const child = spawn(ffmpegPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  // a few MB of slack between the page and ffmpeg, so a slow frame does not stall the next one
  const input = new PassThrough({ highWaterMark: 4 * 1024 * 1024 });
  input.pipe(child.stdin);
  const out: Buffer[] = [];
  if (collectStdout) child.stdout.on('data', (b: Buffer) => out.push(b));
  else child.stdout.resume();
  // ffmpeg's error lines (-loglevel error), for the failure message
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 4000) stderr += chunk;
  });
  let failure: Error | null = null;
  let killed = false;
  const done = new Promise<void>((resolve, reject) => {
    const fail = (why: string) => {
      failure = killed
        ? new Error('ffmpeg stopped')
        : new Error(`ffmpeg failed: ${stderr.trim().split('\n').slice(0, 20).join(' ') || why}`);
      input.destroy();
      reject(failure);
    };
    child.on('error', (err) => fail(err.message));
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : fail(signal ? `killed by ${signal}` : `exit code ${code}`),
    );
  });
  // the caller awaits finish(); an early failure surfaces there or on the next write
  done.catch(() => {});
  // a closed pipe (ffmpeg gone) is reported by `done`, not as an unhandled stream error
  child.stdin.on('error', () => {});
  return {
    async write(frame) {
      if (failure) throw failure;
      await writeDrained(input, frame, () => failure ?? new Error('ffmpeg input closed'));
    },
    async finish() {
      input.end();
      await done;
      return Buffer.concat(out);
    },
    kill() {
      if (killed) return;
      killed = true;
      child.kill('SIGKILL');
      input.destroy();
    },
  };
}

/** Starts ffmpeg writing `opts.output`. */
export function startVideoEncoder(ffmpegPath: string, opts: FfmpegArgsOptions): VideoEncoder {
  const p = spawnFfmpeg(ffmpegPath, buildFfmpegArgs(opts), false);
  return { write: (f) => p.write(f), finish: async () => void (await p.finish()), kill: () => p.kill() };
}

/** Options of the x264 path: frames of the turn starting at a segment boundary. */
export interface SegmentedX264Options extends SegmentArgsOptions {
  /** frames per segment (VIDEO_SEGMENT_FRAMES) */
  segmentFrames: number;
}

/**
 * The x264 path: frames are encoded in segments of `segmentFrames`, each by a fresh ffmpeg
 * whose raw H.264 goes to `sink` in order, so a segment's bytes depend only on its frames
 * (a farm chunk encodes the same segments as the whole render). The first frame written must
 * be a segment's first. The next segment encodes while the previous one's output drains;
 * at most two ffmpegs run at once.
 */
export class SegmentedX264Encoder implements VideoEncoder {
  private current: FfmpegProcess | null = null;
  private inSegment = 0;
  private readonly running = new Set<FfmpegProcess>();
  /** the finished segments' output, written to the sink in order */
  private drained: Promise<void> = Promise.resolve();
  private killed = false;

  constructor(
    private readonly ffmpegPath: string,
    private readonly opts: SegmentedX264Options,
    private readonly sink: H264Sink,
  ) {}

  async write(frame: Buffer): Promise<void> {
    if (this.killed) throw new Error('ffmpeg stopped');
    if (!this.current) this.current = this.start();
    await this.current.write(frame);
    if (++this.inSegment === this.opts.segmentFrames) await this.endSegment();
  }

  async finish(): Promise<void> {
    if (this.current) await this.endSegment();
    await this.drained;
    await this.sink.finish();
  }

  kill(): void {
    this.killed = true;
    for (const p of this.running) p.kill();
    this.sink.kill();
  }

  private start(): FfmpegProcess {
    const { segmentFrames: _, ...args } = this.opts;
    const p = spawnFfmpeg(this.ffmpegPath, buildSegmentArgs(args), true);
    this.running.add(p);
    this.inSegment = 0;
    return p;
  }

  private async endSegment(): Promise<void> {
    const p = this.current!;
    this.current = null;
    // wait for the segment before the previous one: bounds the encoders running at once
    const before = this.drained;
    const out = p.finish().finally(() => this.running.delete(p));
    out.catch(() => {});
    this.drained = before.then(async () => this.sink.write(await out));
    this.drained.catch(() => {});
    await before;
  }
}
