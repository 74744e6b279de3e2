/**
 * The CLI's side of the error vocabulary (src/errors.ts): the two errors commands throw
 * themselves, and the one place that turns any error into a line on stderr and an exit code.
 */
import { InternalError, isBug, UnavailableError, UserError } from '../errors.js';

/** Ends a command with this exit code and one clear line (1: failed, 130: interrupted). */
export class ExitError extends Error {
  constructor(
    public readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ExitError';
  }
}

/** Bad flags or arguments: exit 2. */
export class UsageError extends UserError {
  constructor(message: string) {
    super('usage', message);
    this.name = 'UsageError';
  }
}

/** Whether the running command asked for --json: its failure is then also a JSON object on stdout. */
let jsonErrors = false;

/** Called by a command that prints --json (a preAction hook): its errors become JSON on stdout too. */
export function reportErrorsAsJson(on: boolean): void {
  jsonErrors = on;
}

/** The API's error body (src/http/errors.ts) for a CLI failure: scripts read one shape from both. */
function errorJson(err: unknown): { error: string; message: string; details?: unknown[] } {
  if (err instanceof UserError)
    return { error: err.code, message: err.message, ...(err.details?.length ? { details: err.details } : {}) };
  if (err instanceof UnavailableError || err instanceof InternalError) return { error: err.code, message: err.message };
  return { error: isBug(err) ? 'internal_error' : 'failed', message: err instanceof Error ? err.message : String(err) };
}

/**
 * Writes what went wrong and returns the exit code: the error's own for the vocabulary
 * (2 for user errors, 1 for unavailable and internal ones), 1 for any other failure. A bug
 * (TypeError and its kin) says so, with its stack when `debug`.
 */
export function reportError(
  err: unknown,
  write: (text: string) => void,
  debug: boolean,
  writeOut?: (text: string) => void,
): number {
  // an ExitError follows output the command printed itself (models import's JSON report)
  if (jsonErrors && writeOut && !(err instanceof ExitError)) writeOut(`${JSON.stringify(errorJson(err))}\n`);
  if (err instanceof ExitError) {
    write(`render-farm: ${err.message}\n`);
    return err.code;
  }
  if (err instanceof UserError || err instanceof UnavailableError || err instanceof InternalError) {
    write(`render-farm: ${err.message}\n`);
    return err.exitCode;
  }
  if (isBug(err)) {
    const e = err instanceof Error ? err : new Error(String(err));
    write(`render-farm: internal error (a bug; please report it): ${e.name}: ${e.message}\n`);
    write(debug && e.stack ? `${e.stack}\n` : 'render-farm: run with --log-level debug to see the stack\n');
    return 1;
  }
  write(`render-farm: ${(err as Error).message}\n`);
  return 1;
}
