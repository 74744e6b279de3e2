/**
 * CORS for browser integrators: any origin may call with `Authorization` (credentials are
 * bearer tokens, never cookies, so reflecting the origin grants nothing by itself; origin
 * binding of session tokens is enforced by auth). Errors carry the headers too, so a browser
 * can read a 401 and refresh its token.
 */
import type { NextFunction, Request, Response } from 'express';

const EXPOSED = [
  'X-Service-Auth-Deprecation',
  'Retry-After',
  'ETag',
  'Content-Range',
  'Accept-Ranges',
  'Content-Length',
];

export function cors(req: Request, res: Response, next: NextFunction): void {
  const origin = req.get('origin');
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSED.join(', '));
  }
  res.append('Vary', 'Origin');
  if (req.method === 'OPTIONS' && origin && req.get('access-control-request-method')) {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, HEAD, OPTIONS');
    res.setHeader(
      'Access-Control-Allow-Headers',
      req.get('access-control-request-headers') ?? 'Authorization, Content-Type',
    );
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
}
