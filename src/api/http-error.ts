/** The one error type routes throw; the error middleware turns it into DESIGN.md's body. */
export interface ErrorDetail {
  field?: string;
  message: string;
  [key: string]: unknown;
}

export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly details?: ErrorDetail[],
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (code: string, message: string, details?: ErrorDetail[]) => new HttpError(400, code, message, details);
export const unauthorized = (code: string, message: string) => new HttpError(401, code, message);
export const forbidden = (code: string, message: string) => new HttpError(403, code, message);
export const notFound = (code: string, message: string, details?: ErrorDetail[]) => new HttpError(404, code, message, details);
