/** graphile-worker's logger adapter, shared by every runner of the process (render worker, webhook deliveries). */
/**
 * What graphile-worker prints during every database outage: its LISTEN client's reconnect
 * errors (a burst of them), and its locked-job reset, which it retries at its normal 8-10 min
 * interval: "try again in 490144ms" reads like a backoff of the worker, but jobs are still
 * polled every second.
 */
const OUTAGE_NOISE = /^(?:Error with notify listener|Error occurred attempting to UNLISTEN|Failed to reset locked)/;
const OUTAGE_NOISE_EVERY_MS = 60_000;
/** shared by every runner of the process (render worker, webhook deliveries): one line per outage */
let outageNoiseAt = -Infinity;

/**
 * graphile-worker's logger, silenced below warnings (ours logs job events). Its outage noise
 * is written at most once a minute: an outage (or a restart of the embedded server) otherwise
 * prints a dozen lines, while the heartbeat and the API already report it once. `skip`: more
 * messages to drop.
 */
export function quietLogger(LoggerClass: typeof import('graphile-worker').Logger, skip: (message: string) => boolean = () => false): import('graphile-worker').Logger {
  return new LoggerClass(() => (level, message) => {
    if ((level !== 'error' && level !== 'warning') || skip(message)) return;
    if (OUTAGE_NOISE.test(message)) {
      if (Date.now() - outageNoiseAt < OUTAGE_NOISE_EVERY_MS) return;
      outageNoiseAt = Date.now();
    }
    process.stderr.write(`[graphile-worker] ${level}: ${message}\n`);
  });
}
