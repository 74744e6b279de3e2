/** zod parsing for requests: failures become 400s that name each bad field. */
import type { z } from 'zod';
import { HttpError, type ErrorDetail } from './http-error.js';

export function issuesToDetails(error: z.ZodError): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) details.push({ field: base ? `${base}.${key}` : key, message: 'unknown field' });
    } else {
      details.push({ field: base || undefined, message: issue.message });
    }
  }
  return details;
}

/** Parses `value` or throws a 400 `invalid_<what>` naming the fields. */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: 'body' | 'query' | 'params',
): z.output<S> {
  if (what === 'body' && value === undefined) {
    // no body at all (src/http/json-body.ts has already refused bodies that are not JSON)
    throw new HttpError(
      400,
      'missing_body',
      'the request body is missing: send a JSON object with Content-Type: application/json',
    );
  }
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  if (what === 'body' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw new HttpError(
      400,
      'invalid_body',
      `the request body must be a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
    );
  }
  const details = issuesToDetails(r.error);
  const summary = details
    .slice(0, 3)
    .map((d) => (d.field ? `${d.field}: ${d.message}` : d.message))
    .join('; ');
  throw new HttpError(400, `invalid_${what}`, `invalid request ${what}: ${summary}`, details);
}
