/**
 * The one error middleware: the error vocabulary (src/errors.ts) and body-parser failures
 * become the one error body (docs/design-decisions.md, "Errors"); anything else is a bug, logged and answered 500. Never a stack trace.
 */
import type { NextFunction, Request, Response } from 'express';
import { isDatabaseUnavailableError, isUnstorableTextError } from '../db/pg-errors.js';
import { InternalError, UnavailableError, UserError } from '../errors.js';
import type { Logger } from '../log.js';
import { DB_RETRY_AFTER_S, DbAvailability } from './db-availability.js';
import { HttpError } from './http-error.js';
import { findJsonSyntaxError } from './json-syntax-error.js';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
  /** the text that failed to parse (entity.parse.failed) */
  body?: unknown;
}

/** What the response says: status, code, message, details, headers. */
type Answer = Pick<UserError, 'status' | 'code' | 'message' | 'details' | 'headers'>;

/** What an error stands for in the response, or null for a bug (answered 500 and logged). */
export function toAnswer(err: unknown): Answer | null {
  if (err instanceof UserError) return err;
  if (err instanceof UnavailableError) return { status: err.status, code: err.code, message: err.message };
  if (isUnstorableTextError(err)) {
    return new HttpError(
      400,
      'invalid_input',
      'the request holds characters that cannot be stored (such as NUL): remove control characters',
    );
  }
  const e = err as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return invalidJson(e.body);
    case 'entity.too.large':
      return new HttpError(413, 'payload_too_large', `the request body is larger than the limit of ${e.limit} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'unsupported_encoding', e.message);
    case 'request.aborted':
      return new HttpError(400, 'request_aborted', 'the request was aborted');
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return new HttpError(e.status, 'bad_request', e.message);
  }
  return null;
}

/** 400 invalid_json, saying where: a client with a long body needs the line and column. */
function invalidJson(body: unknown): HttpError {
  // the body parser is strict: an object or an array at the top
  const at = typeof body === 'string' ? findJsonSyntaxError(body, { strict: true }) : null;
  if (!at) return new HttpError(400, 'invalid_json', 'the request body is not valid JSON');
  const where = `line ${at.line}, column ${at.column}`;
  return new HttpError(400, 'invalid_json', `the request body is not valid JSON: ${at.problem} at ${where}`, [
    { message: `${at.problem} at ${where}`, line: at.line, column: at.column, offset: at.offset },
  ]);
}

/** 503 for a database that cannot be reached; logged once per outage by `availability`. */
function databaseUnavailable(err: unknown, availability: DbAvailability): HttpError | null {
  if (!isDatabaseUnavailableError(err)) return null;
  availability.down(err);
  return new HttpError(
    503,
    'database_unavailable',
    `the database is unreachable: retry in ${DB_RETRY_AFTER_S} s`,
    undefined,
    {
      'Retry-After': String(DB_RETRY_AFTER_S),
    },
  );
}

/** `availability` is shared with /health in the app; a lone router (tests) gets its own. */
export function errorMiddleware(log: Logger, availability: DbAvailability = new DbAvailability(log)) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const answer = toAnswer(err) ?? databaseUnavailable(err, availability);
    if (!answer)
      log.error(
        { err, method: req.method, path: req.path },
        err instanceof InternalError ? 'request failed' : 'unhandled error',
      );
    const e = answer ?? { status: 500, code: 'internal_error', message: 'internal error: the failure was logged' };
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [k, v] of Object.entries(e.headers ?? {})) res.setHeader(k, v);
    res
      .status(e.status)
      .json({ error: e.code, message: e.message, ...(e.details?.length ? { details: e.details } : {}) });
  };
}

export function notFoundHandler(req: Request, _res: Response, next: NextFunction): void {
  next(new HttpError(404, 'not_found', `no route for ${req.method} ${req.path}: see /api-docs`));
}
