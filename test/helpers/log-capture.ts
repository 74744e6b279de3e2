/** A real pino logger whose JSON lines are kept in memory, to assert on what a process logs. */
import pino from 'pino';
import type { Logger } from '../../src/log.js';

export interface CapturedLog {
  log: Logger;
  lines: Record<string, any>[];
  /** lines whose msg matches */
  find(msg: RegExp): Record<string, any>[];
}

export function captureLogger(level: 'debug' | 'info' | 'warn' = 'info'): CapturedLog {
  const lines: Record<string, any>[] = [];
  const log = pino({ level }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { log, lines, find: (msg) => lines.filter((l) => msg.test(String(l.msg))) };
}
