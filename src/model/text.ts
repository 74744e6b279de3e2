/**
 * The string schema for every free-form string a request carries (IDs, share codes, origins):
 * control characters are refused at validation. PostgreSQL text cannot hold NUL (a query with
 * one fails), and no ID, code or origin legitimately contains any C0/C1 control character.
 */
import { z } from 'zod';

export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** A request string without control characters; chain .min/.max as usual. */
export function text() {
  return z
    .string()
    .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'must not contain control characters (such as NUL or newlines)');
}
