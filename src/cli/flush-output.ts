/**
 * Waits until stdout and stderr have handed everything written so far to the OS. On POSIX a
 * pipe is written asynchronously, so `process.exit` right after a large write drops the rest:
 * `jobs list --json | wc -c` stopped at 64 KiB (the pipe buffer) with exit 0.
 */
import type { Writable } from 'node:stream';

function drained(stream: Writable, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableFinished) return resolve();
    const done = () => {
      clearTimeout(timer);
      stream.off('error', done);
      resolve();
    };
    // a reader that went away (EPIPE, `| head`) or never reads must not hold the exit forever
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    stream.once('error', done);
    // writes complete in order: the callback of an empty write runs once every earlier one is out
    stream.write('', () => done());
  });
}

/** Resolves once stdout and stderr are flushed, or after `timeoutMs` if a reader stalls. */
export async function flushOutput(timeoutMs = 30_000): Promise<void> {
  await Promise.all([drained(process.stdout, timeoutMs), drained(process.stderr, timeoutMs)]);
}
