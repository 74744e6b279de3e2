/**
 * The lint rule that keeps page code out of strings (scripts/page-code-in-strings.mjs, run by
 * `npm run lint:rules`): it flags what src/render/page-capture.ts and batch-stills.ts used to
 * be (page functions in template literals, source text evaluated in the page) and passes SQL
 * tags, `${}` expressions, comments, regexes and function references.
 */
import { describe, expect, it } from 'vitest';
import { pageCodeInStrings } from '../../scripts/page-code-in-strings.mjs';

const lines = (text: string) => pageCodeInStrings(text).map((p) => p.line);

describe('pageCodeInStrings', () => {
  it('flags page functions kept in an untagged template literal, at the line it opens', () => {
    const old = [
      "import type { X } from './x.js';",
      '/** Installs `window.__rfRun` in the page. */',
      'export const PAGE_CAPTURE_SOURCE = `',
      '(() => {',
      '  if (window.__rfRun) return;',
      '  window.__rfRun = async (req) => { return req; };',
      '})();',
      '`;',
    ].join('\n');
    expect(lines(old)).toEqual([3]);
    expect(lines('const s = `function run(req) { return req.token; }`;')).toEqual([1]);
    expect(lines('return `\n  async function* frames() {}\n`;')).toEqual([1]);
  });

  it('flags source text given to the page to evaluate or inject', () => {
    expect(lines("await page.evaluate('window.renderStage.dispose()');")).toEqual([1]);
    expect(lines('await page.evaluate(`window.__rfH264Codec(${w}, ${h})`);')).toEqual([1]);
    expect(lines('await page.waitForFunction("!!window.renderStage");')).toEqual([1]);
    expect(lines('const h = await page.evaluateHandle(\n  `document.body`);')).toEqual([1]);
    expect(lines('await page.addScriptTag({ content: SOURCE });')).toEqual([1]);
  });

  it('passes SQL tags, ${} expressions, comments, regexes, plain text and function references', () => {
    const fine = [
      'sql<Date>`now() - make_interval(secs => ${deadAfterS})`;',
      'const q = sql`SELECT make_interval(secs => ${keep})`;',
      'const list = `${items.map((i) => i.name).join(", ")} and more`;',
      '// a comment may show `(x) => x` in backticks',
      '/* so may `function f() {}` here */',
      'const quote = /[`\'"]/.test(s) ? `plain text` : `a -> b`;',
      'const r = await page.evaluate((name: string) => Reflect.get(window, name), fn);',
      "const help = 'arrows => in a plain string are text';",
      'const half = total / 2; const t = `${half} frames`;',
    ].join('\n');
    expect(pageCodeInStrings(fine)).toEqual([]);
  });
});
