import { InternalError, UserError } from '../errors.js';

/** A failure that retrying cannot fix (bad data): the render fails at once, no retry. */
export class PermanentRenderError extends InternalError {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentRenderError';
  }
}

/** A refusal by the state of a job or worker, not the command: 409, exit 1; the message says why and what to do. */
function refusal(code: string, name: string) {
  return class extends UserError {
    constructor(message: string) {
      super(code, message, { status: 409, exitCode: 1 });
      this.name = name;
    }
  };
}

/** `jobs retry` cannot retry this job now. */
export const RetryRefusedError = refusal('retry_refused', 'RetryRefusedError');

/** `jobs cancel` cannot cancel this job: it has already ended. */
export const CancelRefusedError = refusal('cancel_refused', 'CancelRefusedError');

/** `workers drain` cannot drain this worker: it is not running (stopped, or gone silent). */
export const DrainRefusedError = refusal('drain_refused', 'DrainRefusedError');

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
