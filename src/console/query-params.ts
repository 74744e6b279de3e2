/** The console's query parameters, read by hand: one value each, or one of a list. */
import type { Request } from 'express';
import { badRequest } from '../http/http-error.js';

export function queryString(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw badRequest('invalid_query', `${name} must be given once`);
  return v;
}

export function oneOf<T extends string>(req: Request, name: string, allowed: readonly T[]): T | undefined {
  const v = queryString(req, name);
  if (v !== undefined && !(allowed as readonly string[]).includes(v)) throw badRequest('invalid_query', `${name} must be one of ${allowed.join(', ')}`);
  return v as T | undefined;
}
