/**
 * Finds page code kept as source text (`npm run lint:rules`): JavaScript for a browser page in
 * a string or template literal is invisible to tsc and the lint rules, so the stage's code lives
 * in farm/src/ and Node calls it through callStage (src/render/call-stage.ts). Flags
 *   - page.evaluate / evaluateHandle / waitForFunction / evaluateOnNewDocument / $eval / $$eval
 *     given a string or template literal, and addScriptTag / addStyleTag with `content`;
 *   - an untagged template literal whose text (outside `${}`) holds an arrow (`=>`) or a
 *     `function`: functions written out for a page to run. Tagged ones are left alone: sql`...`
 *     is SQL, where `=>` names an argument (make_interval(secs => ...)).
 * A small lexer, not a parser: comments, strings, template literals (with nested `${}`) and
 * regular expression literals are told apart so that neither a comment nor a regex trips it.
 */

const CALL = /\.(evaluate|evaluateHandle|waitForFunction|evaluateOnNewDocument|\$eval|\$\$eval)\(\s*['"`]/g;
const SCRIPT_TAG = /\.add(Script|Style)Tag\(\s*\{[^}]*\bcontent\s*:/g;
const CODE = /=>|\bfunction\b\s*\*?\s*[\w$]*\s*\(/;
/** A `/` after one of these (or at the start) opens a regular expression, not a division. */
const BEFORE_REGEX = /[(,=:[!&|?{};+\-*%<>~^]$|(^|[^\w$])(return|typeof|case|do|else|in|of|void|yield|await)$/;
/** A template literal right after one of these has a tag (an identifier, a call, a generic's `>`). */
const BEFORE_TAG = /[\w$)\]>]$/;
const KEYWORD = /^(return|typeof|case|do|else|in|of|void|yield|await|throw|new|export|default)$/;

/** Problems in one file's text: `{ line, message }`, lines from 1. */
export function pageCodeInStrings(text) {
  const problems = [];
  const lineAt = (i) => text.slice(0, i).split('\n').length;
  // on the whole text: the argument may start on the next line
  for (const m of text.matchAll(CALL))
    problems.push({
      line: lineAt(m.index),
      message: 'evaluates source text in the page: put the code in the stage (farm/src/) and call it through callStage',
    });
  for (const m of text.matchAll(SCRIPT_TAG))
    problems.push({
      line: lineAt(m.index),
      message: 'injects source text into the page: put the code in the stage (farm/src/) and call it through callStage',
    });
  for (const t of templateLiterals(text)) {
    if (!t.tagged && CODE.test(t.text))
      problems.push({
        line: lineAt(t.start),
        message:
          'a template literal holds functions (page code in a string?): write it as TypeScript in farm/src/ and call it through callStage',
      });
  }
  return problems.sort((a, b) => a.line - b.line);
}

/** Every template literal: its start offset, its literal text (the `${}` parts left out), whether it is tagged. */
function templateLiterals(text) {
  const found = [];
  // a stack of open template literals; each records the brace depth of its current `${`
  const open = [];
  let depth = 0;
  let i = 0;
  let significant = '';
  const n = text.length;
  while (i < n) {
    const c = text[i];
    const top = open[open.length - 1];
    if (top && top.inText) {
      if (c === '\\') {
        top.text += text.slice(i, i + 2);
        i += 2;
      } else if (c === '`') {
        open.pop();
        found.push({ start: top.start, text: top.text, tagged: top.tagged });
        significant = '`';
        i++;
      } else if (c === '$' && text[i + 1] === '{') {
        top.inText = false;
        top.depth = depth;
        depth++;
        i += 2;
        significant = '{';
      } else {
        top.text += c;
        i++;
      }
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'") {
      i = skipQuoted(text, i, c);
      significant = c;
    } else if (c === '`') {
      open.push({
        start: i,
        text: '',
        inText: true,
        depth: 0,
        tagged: BEFORE_TAG.test(significant) && !KEYWORD.test(significant),
      });
      i++;
    } else if (c === '/' && BEFORE_REGEX.test(significant)) {
      i = skipRegex(text, i);
      significant = '/';
    } else if (c === '{') {
      depth++;
      significant = c;
      i++;
    } else if (c === '}') {
      depth--;
      if (top && !top.inText && depth === top.depth) top.inText = true;
      significant = c;
      i++;
    } else {
      if (!/\s/.test(c))
        significant = /[\w$]/.test(c) ? (/[\w$]/.test(significant.slice(-1)) ? significant + c : c) : c;
      i++;
    }
  }
  return found;
}

function skipQuoted(text, i, quote) {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === quote || text[j] === '\n') return j + 1;
  }
  return text.length;
}

function skipRegex(text, i) {
  let inClass = false;
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '\n') return j;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '/') return j + 1;
  }
  return text.length;
}
