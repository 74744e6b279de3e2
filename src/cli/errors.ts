/** Errors that end a CLI command with a given exit code and one clear line. */
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
export class UsageError extends ExitError {
  constructor(message: string) {
    super(2, message);
    this.name = 'UsageError';
  }
}
