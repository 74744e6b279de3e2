/** Structured logs (pino): JSON for machines, human lines on a terminal. Credentials are redacted wherever they could appear. */
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import { prettyDestination } from './log-pretty.js';

export type { Logger };

/**
 * `logFormat` auto: human lines when stdout is a terminal, JSON otherwise (files, pipes,
 * log collectors); `json` or `pretty` force one.
 */
export function createLogger(
  cfg: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>,
  name = 'render-farm',
): Logger {
  const format = cfg.logFormat ?? 'auto';
  const pretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  return pino(
    {
      name,
      level: cfg.logLevel,
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'key', 'token', 'session_token'],
        censor: '[redacted]',
      },
    },
    pretty ? prettyDestination(process.stdout) : undefined,
  );
}
