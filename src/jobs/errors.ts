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

/** `jobs cancel` cannot cancel this job: it has already ended (409, exit 1); the message says so. */
export class CancelRefusedError extends UserError {
  constructor(message: string) {
    super('cancel_refused', message, { status: 409, exitCode: 1 });
    this.name = 'CancelRefusedError';
  }
}

/** `workers drain` cannot drain this worker: it is not running (stopped, or gone silent); 409, exit 1. */
export class DrainRefusedError extends UserError {
  constructor(message: string) {
    super('drain_refused', message, { status: 409, exitCode: 1 });
    this.name = 'DrainRefusedError';
  }
}

/**
 * Ends a queue job whose work another worker took over (fencing, claim-fence.ts) as a
 * failure rather than a completion: graphile-worker deletes a completed job by id whoever locks
 * it (the new holder's run of the same job included), while it records a failure only on a job
 * this worker still locks, which here is none, so the new holder's job stays intact.
 */
export class TakenOverError extends InternalError {
  constructor(message: string) {
    super(message);
    this.name = 'TakenOverError';
  }
}
