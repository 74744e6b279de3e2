/** Structured JSON logs (pino). Credentials are redacted wherever they could appear. */
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

export function createLogger(cfg: Pick<Config, 'logLevel'>, name = 'render-farm'): Logger {
  return pino({
    name,
    level: cfg.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'key', 'token', 'session_token'],
      censor: '[redacted]',
    },
  });
}
