/**
 * Where a JSON text first breaks the grammar, for the `invalid_json` answer: V8's own messages
 * (Node 20) name no position for most mistakes ("Unexpected token 'x', ... is not valid JSON"),
 * and a client with a 5 KB body needs the line and column. One pass, no recursion (a body of
 * nested brackets must not overflow the stack).
 */

export interface JsonSyntaxError {
  /** 0-based index of the offending character in the text (the text's length: it ended early) */
  offset: number;
  /** 1-based */
  line: number;
  /** 1-based, in characters */
  column: number;
  /** what is wrong there, e.g. `unexpected 'x' (expected a value)` */
  problem: string;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9a-fA-F]{4}$/;
/** sticky: matches at lastIndex only */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The first syntax error of `text`, or null when it is valid JSON. `strict`: the top-level
 * value must be an object or an array (what the body parser accepts).
 */
export function findJsonSyntaxError(text: string, opts: { strict?: boolean } = {}): JsonSyntaxError | null {
  let i = 0;
  /** the open containers, innermost last */
  const open: ('{' | '[')[] = [];
  const fail = (expected: string, at = i): JsonSyntaxError =>
    locate(text, at, `${describe(text, at)} (expected ${expected})`);
  const skipWs = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };

  /** after a complete value: what may follow it; null when the text is done */
  const afterValue = (): JsonSyntaxError | 'more' | null => {
    skipWs();
    const inner = open.at(-1);
    if (!inner) return i === text.length ? null : fail('the end of the body');
    const close = inner === '{' ? '}' : ']';
    if (text[i] === ',') {
      i++;
      return 'more';
    }
    if (text[i] === close) {
      i++;
      open.pop();
      return afterValue();
    }
    return fail(`',' or '${close}'`);
  };

  /** reads a string starting at the quote; an error, or null with i after the closing quote */
  const readString = (): JsonSyntaxError | null => {
    i++;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return null;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!HEX.test(text.slice(i + 2, i + 6))) return locate(text, i, 'a \\u escape needs 4 hex digits');
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) i += 2;
        else
          return locate(
            text,
            i,
            e === undefined ? 'the body ends inside a string' : `invalid escape '\\${e}' in a string`,
          );
        continue;
      }
      if (c < ' ')
        return locate(
          text,
          i,
          `a control character (U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}) in a string: escape it`,
        );
      i++;
    }
    return locate(text, i, 'the body ends inside a string (a missing closing quote)');
  };

  /** reads a number or a literal; an error, or null with i after it */
  const readScalar = (): JsonSyntaxError | null => {
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return null;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail('a value');
    // "1." or "1e" stop the match early: the character after it is the mistake
    i += m[0].length;
    return null;
  };

  skipWs();
  if (opts.strict && i < text.length && text[i] !== '{' && text[i] !== '[') return fail("'{' or '['");
  // reading a value at i (after '[', ',' or ':', or at the top)
  for (;;) {
    skipWs();
    const c = text[i];
    let err: JsonSyntaxError | null = null;
    if (c === '{' || c === '[') {
      open.push(c);
      i++;
      skipWs();
      if (text[i] === (c === '{' ? '}' : ']')) {
        i++;
        open.pop();
      } else if (c === '{') {
        // a member: "key" :
        const key = readKey();
        if (key) return key;
        continue;
      } else continue;
    } else if (c === '"') err = readString();
    else if (c === undefined) return fail('a value');
    else err = readScalar();
    if (err) return err;
    const next = afterValue();
    if (next === null) return null;
    if (next !== 'more') return next;
    if (open.at(-1) === '{') {
      const key = readKey();
      if (key) return key;
    }
  }

  /** reads `"key" :` at i (inside an object); an error, or null with i at the value */
  function readKey(): JsonSyntaxError | null {
    skipWs();
    if (text[i] !== '"') return fail('a property name in double quotes');
    const err = readString();
    if (err) return err;
    skipWs();
    if (text[i] !== ':') return fail("':' after the property name");
    i++;
    return null;
  }
}

function describe(text: string, at: number): string {
  if (at >= text.length) return 'the body ends early';
  const c = text.codePointAt(at)!;
  return `unexpected ${c < 0x20 ? `U+${c.toString(16).padStart(4, '0').toUpperCase()}` : `'${String.fromCodePoint(c)}'`}`;
}

function locate(text: string, offset: number, problem: string): JsonSyntaxError {
  const before = text.slice(0, offset);
  const lastNewline = before.lastIndexOf('\n');
  let line = 1;
  for (let k = before.indexOf('\n'); k !== -1; k = before.indexOf('\n', k + 1)) line++;
  return { offset, line, column: offset - lastNewline, problem };
}
