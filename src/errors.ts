/**
 * The error vocabulary of the whole code base. A handful of kinds, each knowing its HTTP status
 * and CLI exit code, so the API (src/http/errors.ts) and the CLI (src/cli/errors.ts) each map
 * them in one place. Named errors elsewhere (ConfigError, UnknownPartsError, MissingToolError,
 * WebhookTargetError, RetryRefusedError, StorageError, ...) extend these, so no route or
 * command translates them. Anything else that reaches those two places is treated as a failure
 * (or, for TypeError and its kin, as a bug).
 */

/** One problem of a request, e.g. `{ field: 'width', message: 'too small' }`. */
export interface ErrorDetail {
  field?: string;
  message: string;
  [key: string]: unknown;
}

export interface UserErrorOptions {
  /** HTTP status (4xx); default 400 */
  status?: number;
  /** exit code of a CLI command; default 2 (usage) */
  exitCode?: number;
  details?: ErrorDetail[];
  /** response headers, e.g. Retry-After */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** Something the caller can fix: bad input, credentials, limits. The message says what to do. */
export class UserError extends Error {
  readonly status: number;
  readonly exitCode: number;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(
    /** machine-readable code, e.g. `invalid_body`, `token_expired` */
    readonly code: string,
    message: string,
    opts: UserErrorOptions = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'UserError';
    this.status = opts.status ?? 400;
    this.exitCode = opts.exitCode ?? 2;
    this.details = opts.details;
    this.headers = opts.headers;
  }
}

/** The thing asked for does not exist (part, build, job, artifact): 404, exit 2. */
export class NotFoundError extends UserError {
  constructor(code: string, message: string, opts: Omit<UserErrorOptions, 'status'> = {}) {
    super(code, message, { ...opts, status: 404 });
    this.name = 'NotFoundError';
  }
}

/** Something this process needs is missing or down (a tool, the database, WebGL): 503, exit 1. The message says how to provide it. */
export class UnavailableError extends Error {
  readonly status = 503;
  readonly exitCode = 1;

  constructor(
    readonly code: string,
    message: string,
    opts: { cause?: unknown } = {},
  ) {
    super(message, opts);
    this.name = 'UnavailableError';
  }
}

/** An operation failed for reasons that are neither the caller's nor a bug (a crashed render, a refusing upstream): 500, exit 1. */
export class InternalError extends Error {
  readonly status = 500;
  readonly exitCode = 1;
  readonly code: string = 'internal_error';

  constructor(message: string, opts: { cause?: unknown } = {}) {
    super(message, opts);
    this.name = 'InternalError';
  }
}

/** Errors that mean the code is wrong, not the input or the world: printed with their stack (at debug), exit 1. */
export function isBug(err: unknown): boolean {
  return (
    !(err instanceof Error) ||
    err instanceof TypeError ||
    err instanceof ReferenceError ||
    err instanceof SyntaxError ||
    err instanceof RangeError ||
    err instanceof EvalError ||
    err instanceof URIError ||
    err.name === 'AssertionError'
  );
}
