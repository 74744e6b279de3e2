/** A failure that retrying cannot fix (bad data): the render fails at once, no retry. */
export class PermanentRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentRenderError';
  }
}

/** `jobs retry` cannot retry this job now; the message says why and what to do. */
export class RetryRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryRefusedError';
  }
}
