/**
 * Request bodies are JSON: parsed when the Content-Type says so, and refused (415) when a body
 * of any other type arrives, because silently ignoring it would run the request on defaults
 * (a token minted without the origin binding the caller asked for). A request without a body
 * is left to the route: optional-only bodies (POST /auth/render-session) take the defaults,
 * required fields get 400 missing_body.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { HttpError } from './http-error.js';

/** What counts as JSON: application/json and the structured +json types (JSON:API and the like). */
export const JSON_TYPES = ['application/json', 'application/*+json'];

/** Content-Length 0 is no body, whatever its type says. */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0;
}

export function jsonBody(limit: string): RequestHandler[] {
  const parse = express.json({ limit, strict: true, type: JSON_TYPES });
  const refuseOthers = (req: Request, _res: Response, next: NextFunction) => {
    if (hasBody(req) && !req.is(JSON_TYPES)) {
      const type = req.get('content-type');
      throw new HttpError(
        415,
        'unsupported_media_type',
        `the request body must be JSON sent with Content-Type: application/json${type ? `, not ${type}` : ' (the request has no Content-Type)'}`,
      );
    }
    next();
  };
  return [parse, refuseOthers];
}
