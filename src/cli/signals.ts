/**
 * Keeps a long-running command alive until SIGINT/SIGTERM, then shuts down cleanly once (also
 * when `ended` resolves: what it runs stopped by itself, e.g. a worker drained on request); or
 * until `fatal` resolves with an error (a part it cannot run without is gone for good): then
 * the shutdown gets `fatalShutdownMs` at most, since it cannot drain into what is gone, and
 * the command fails with that error.
 */
export function runUntilSignal(
  shutdown: () => Promise<void>,
  opts: { fatal?: Promise<Error>; fatalShutdownMs?: number; ended?: { done: Promise<unknown>; why: string } } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`render-farm: ${signal} again, exiting now\n`);
        process.exit(1);
      }
      stopping = true;
      process.stderr.write(`render-farm: ${signal} received, shutting down\n`);
      shutdown().then(resolve, reject);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    // it stopped by itself (a worker drained through the database): shut down as on SIGTERM
    void opts.ended?.done.then(() => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`render-farm: ${opts.ended!.why}, shutting down\n`);
      shutdown().then(resolve, reject);
    });
    void opts.fatal?.then(async (err) => {
      if (stopping) return;
      stopping = true;
      const bound = new Promise((r) => setTimeout(r, opts.fatalShutdownMs ?? 10_000).unref());
      await Promise.race([shutdown().catch(() => {}), bound]);
      reject(err);
    });
  });
}
