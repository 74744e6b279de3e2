import { InternalError, UserError } from '../errors.js';

/** A failure that retrying cannot fix (bad data): the render fails at once, no retry. */
export class PermanentRenderError extends InternalError {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentRenderError';
  }
}

/** `jobs retry` cannot retry this job now; the message says why and what to do (409, exit 1: the job's state, not the command, is in the way). */
export class RetryRefusedError extends UserError {
  constructor(message: string) {
    super('retry_refused', message, { status: 409, exitCode: 1 });
    this.name = 'RetryRefusedError';
  }
}
