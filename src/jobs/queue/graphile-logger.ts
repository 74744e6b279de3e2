/** graphile-worker's logger adapter, shared by every runner of the process (render worker, webhook deliveries). */
import type { Logger } from '../../log.js';
import type { Logger as GraphileLogger } from 'graphile-worker';

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

export interface QuietLoggerOptions {
  /**
   * where the lines go: the process's logger (JSON or human lines, at its level; a test's
   * captured logger keeps them off the console). Without one (schema set-up), stderr.
   */
  log?: Logger;
  /** more messages to drop */
  skip?: (message: string) => boolean;
}

/**
 * graphile-worker's logger, silenced below warnings (ours logs job events). Its outage noise
 * is written at most once a minute: an outage (or a restart of the embedded server) otherwise
 * prints a dozen lines, while the heartbeat and the API already report it once.
 */
export function quietLogger(LoggerClass: typeof GraphileLogger, opts: QuietLoggerOptions = {}): GraphileLogger {
  return new LoggerClass(() => (level, message, meta) => {
    if ((level !== 'error' && level !== 'warning') || opts.skip?.(message)) return;
    if (OUTAGE_NOISE.test(message)) {
      if (Date.now() - outageNoiseAt < OUTAGE_NOISE_EVERY_MS) return;
      outageNoiseAt = Date.now();
    }
    if (!opts.log) {
      process.stderr.write(`[graphile-worker] ${level}: ${message}\n`);
      return;
    }
    // a failed task's message ends with the error's stack: the logger records the error itself
    // (its stack in JSON, printed under the line on a terminal). Other messages (an outage's
    // reconnects) name their error in the text; a stack would say nothing more
    const err = meta?.failure === true && meta.error instanceof Error ? meta.error : undefined;
    const text = err ? message.split('\n')[0]!.replace(/:$/, '') : message;
    const fields = { component: 'graphile-worker', ...(err ? { err } : {}) };
    if (level === 'error') opts.log.error(fields, text);
    else opts.log.warn(fields, text);
  });
}
