/**
 * Streams frames into ffmpeg's stdin (through fluent-ffmpeg) as they are captured, so a video
 * never holds more than a couple of frames in memory. `write` waits for the pipe to drain:
 * that backpressure reaches the page, which stops rendering ahead of the encoder.
 */
import { PassThrough } from 'node:stream';
import ffmpeg from 'fluent-ffmpeg';
import { buildFfmpegOptions, type FfmpegArgsOptions } from './ffmpeg-args.js';

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
  const input = new PassThrough({ highWaterMark: 4 * 1024 * 1024 });
  const { inputOptions, outputOptions } = buildFfmpegOptions(opts);
  const stderr: string[] = [];
  let failure: Error | null = null;
  let killed = false;
  const command = ffmpeg({ source: input })
    .setFfmpegPath(ffmpegPath)
    .inputOptions(inputOptions)
    .outputOptions(['-hide_banner', '-loglevel', 'error', ...outputOptions])
    .output(opts.output)
    .on('stderr', (line: string) => {
      if (stderr.length < 20) stderr.push(line);
    });
  const done = new Promise<void>((resolve, reject) => {
    command.on('end', () => resolve());
    command.on('error', (err: Error) => {
      failure = killed ? new Error('ffmpeg stopped') : new Error(`ffmpeg failed: ${stderr.join(' ').trim() || err.message}`);
      input.destroy();
      reject(failure);
    });
  });
  // the caller awaits finish(); an early failure surfaces there or on the next write
  done.catch(() => {});
  command.run();
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
      command.kill('SIGKILL');
      input.destroy();
    },
  };
}
