/**
 * Errors routes throw: the vocabulary's UserError (src/errors.ts) with the status first, and
 * shorthands for the common statuses. The error middleware (errors.ts) turns them into
 * the one error body (docs/design-decisions.md, "Errors").
 */
import { NotFoundError, UserError, type ErrorDetail } from '../errors.js';

export type { ErrorDetail };

export class HttpError extends UserError {
  constructor(
    status: number,
    code: string,
    message: string,
    details?: ErrorDetail[],
    headers?: Record<string, string>,
  ) {
    super(code, message, { status, details, headers });
    this.name = 'HttpError';
  }
}

export const badRequest = (code: string, message: string, details?: ErrorDetail[]) =>
  new HttpError(400, code, message, details);
export const unauthorized = (code: string, message: string) => new HttpError(401, code, message);
export const forbidden = (code: string, message: string) => new HttpError(403, code, message);
export const notFound = (code: string, message: string, details?: ErrorDetail[]) =>
  new NotFoundError(code, message, { details });
