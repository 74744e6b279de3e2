/** Keeps a long-running command alive until SIGINT/SIGTERM, then shuts down cleanly once. */
export function runUntilSignal(shutdown: () => Promise<void>): Promise<void> {
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
  });
}
