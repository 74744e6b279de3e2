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

/** An empty parameter (`?status=`, a form's empty field) is as good as none. */
const emptyIsAbsent = (v: unknown) => (v === '' ? undefined : v);

/** One optional text value; a repeated parameter is refused. */
export const queryText = (name: string) =>
  z.preprocess(emptyIsAbsent, z.string({ error: `${name} must be given once` }).optional());

/** One optional value of a closed list; a repeated parameter is refused. */
export const queryChoice = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.preprocess(
    emptyIsAbsent,
    z
      .enum(values, {
        error: (i) =>
          Array.isArray(i.input) ? `${name} must be given once` : `${name} must be one of ${values.join(', ')}`,
      })
      .optional(),
  );

/** An optional integer from min to max (see intString); empty is absent. */
export const queryInt = (name: string, min: number, max: number) =>
  z.preprocess(emptyIsAbsent, intString(name, min, max).optional());
