/**
 * zod fields for query parameters, which arrive as strings (a repeated one as an array): the
 * API's and the console's queries are parsed by the same fields, so both answer bad input alike.
 */
import { z } from 'zod';

export const intString = (name: string, min: number, max: number) =>
  z
    .string({ error: `${name} must be a single integer` })
    .regex(/^\d+$/, `${name} must be an integer from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));
