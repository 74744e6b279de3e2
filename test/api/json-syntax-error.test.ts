/**
 * The position of a JSON syntax error (src/http/json-syntax-error.ts): the `invalid_json` answer names the
 * line and column, which V8's messages mostly do not. The locator agrees with JSON.parse on
 * what is valid, over random texts built from JSON's own pieces.
 */
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../src/http/json-syntax-error.js';

describe('findJsonSyntaxError', () => {
  it.each([
    ['{"a":1,\n "b": x}', 2, 7, "unexpected 'x' (expected a value)"],
    ['{"ttl_seconds":', 1, 16, 'the body ends early (expected a value)'],
    ['[1,2,]', 1, 6, "unexpected ']' (expected a value)"],
    ['{"a" 1}', 1, 6, "unexpected '1' (expected ':' after the property name)"],
    ["{'a':1}", 1, 2, "unexpected ''' (expected a property name in double quotes)"],
    ['{"a":1}\n\n  }', 3, 3, "unexpected '}' (expected the end of the body)"],
    ['{"a":"b', 1, 8, 'the body ends inside a string (a missing closing quote)'],
    ['{"a":"\\x"}', 1, 7, "invalid escape '\\x' in a string"],
  ])('%j: line %i, column %i', (text, line, column, problem) => {
    expect(findJsonSyntaxError(text)).toMatchObject({ line, column, problem });
  });

  it('strict: the top level must be an object or an array, as the body parser wants', () => {
    expect(findJsonSyntaxError('  "text"', { strict: true })).toMatchObject({
      offset: 2,
      column: 3,
      problem: "unexpected '\"' (expected '{' or '[')",
    });
    expect(findJsonSyntaxError('  "text"')).toBeNull();
  });

  it('deep nesting and long numbers do not trip it', () => {
    expect(findJsonSyntaxError('['.repeat(200_000))).toMatchObject({
      offset: 200_000,
      problem: 'the body ends early (expected a value)',
    });
    expect(findJsonSyntaxError(`[${'9'.repeat(5000)}]`)).toBeNull();
  });

  it('finds an error exactly when JSON.parse throws (20,000 random texts)', () => {
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"a"',
      '1',
      '-',
      '0',
      '.5',
      'e3',
      'true',
      'nul',
      ' ',
      '\n',
      '"',
      '\\',
      'x',
      '"\\u00e9"',
      '"\\u12"',
    ];
    // a fixed seed: a failure can be reproduced
    let seed = 29;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const mismatches: string[] = [];
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      for (let k = 1 + Math.floor(random() * 10); k > 0; k--) text += pieces[Math.floor(random() * pieces.length)];
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      if ((findJsonSyntaxError(text) === null) !== valid) mismatches.push(text);
    }
    expect(mismatches).toEqual([]);
  });
});
