/**
 * A raw H.264 sink that writes to a file (a farm chunk's `video.h264` piece) instead of the
 * remux ffmpeg; `write` waits for the stream to drain, like the ffmpeg pipe does.
 */
import { createWriteStream } from 'node:fs';
import { writeDrained, type H264Sink } from './video-encoder.js';

export function startH264File(file: string): H264Sink {
  const out = createWriteStream(file);
  let failure: Error | null = null;
  out.on('error', (err) => {
    failure = failure ?? err;
  });
  return {
    async write(bytes) {
      if (failure) throw failure;
      await writeDrained(out, bytes, () => failure ?? new Error(`${file} closed`));
    },
    finish() {
      return new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        out.end((err?: Error | null) => (err ? reject(err) : failure ? reject(failure) : resolve()));
      });
    },
    kill() {
      failure = failure ?? new Error('h264 file closed');
      out.destroy();
    },
  };
}
