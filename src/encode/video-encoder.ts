/**
 * Streams frames into ffmpeg's stdin as they are captured, so a video never holds more than a
 * couple of frames in memory. `write` waits for the pipe to drain: that backpressure reaches
 * the page, which stops rendering ahead of the encoder. The command line is exactly
 * buildFfmpegArgs (ffmpeg-args.ts), the builder the unit tests check.
 */
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { buildFfmpegArgs, type FfmpegArgsOptions } from './ffmpeg-args.js';

/** A running ffmpeg process fed through `write`. */
export interface VideoEncoder {
  write(frame: Buffer): Promise<void>;
  /** Closes stdin and waits for ffmpeg to finish the file. */
  finish(): Promise<void>;
  /** Kills ffmpeg (cancel or failure); safe to call more than once. */
  kill(): void;
}

/** Starts ffmpeg writing `opts.output`. */
export function startVideoEncoder(ffmpegPath: string, opts: FfmpegArgsOptions): VideoEncoder {
  const child = spawn(ffmpegPath, buildFfmpegArgs(opts), { stdio: ['pipe', 'ignore', 'pipe'] });
  // a few MB of slack between the page and ffmpeg, so a slow frame does not stall the next one
  const input = new PassThrough({ highWaterMark: 4 * 1024 * 1024 });
  input.pipe(child.stdin);
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
      failure = killed ? new Error('ffmpeg stopped') : new Error(`ffmpeg failed: ${stderr.trim().split('\n').slice(0, 20).join(' ') || why}`);
      input.destroy();
      reject(failure);
    };
    child.on('error', (err) => fail(err.message));
    child.on('close', (code, signal) => (code === 0 ? resolve() : fail(signal ? `killed by ${signal}` : `exit code ${code}`)));
  });
  // the caller awaits finish(); an early failure surfaces there or on the next write
  done.catch(() => {});
  // a closed pipe (ffmpeg gone) is reported by `done`, not as an unhandled stream error
  child.stdin.on('error', () => {});
  return {
    async write(frame) {
      if (failure) throw failure;
      if (!input.write(frame)) {
        await new Promise<void>((resolve, reject) => {
          const onDrain = () => { input.off('close', onClose); resolve(); };
          const onClose = () => { input.off('drain', onDrain); reject(failure ?? new Error('ffmpeg input closed')); };
          input.once('drain', onDrain);
          input.once('close', onClose);
        });
      }
    },
    async finish() {
      input.end();
      await done;
    },
    kill() {
      if (killed) return;
      killed = true;
      child.kill('SIGKILL');
      input.destroy();
    },
  };
}
