/**
 * What the README, the docs/ pages and the CLI's help examples tell people to write into the checkout is ignored
 * by git (`.gitignore`; `models example --out gpu.glb`, `models preview --out try.png` and
 * `render --out ./try` showed up in `git status`). Outputs are read from the example lines
 * themselves: `--out X`, curl's `-o X` and `> X`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.js';
import { docPages, readPage } from './doc-pages.js';

/** Example command lines: the `render-farm` (or `npx render-farm`) and `curl` lines of the README and docs/ pages, and the CLI help's `$ render-farm` lines. */
async function exampleLines(): Promise<string[]> {
  // the generated CLI reference is synopses (`--out DIR`, `--out still.png`): placeholders, not examples
  const readme = docPages({ handWritten: true }).flatMap((page) =>
    readPage(page)
      .split('\n')
      .filter((l) => /^\s*((npx )?render-farm|curl) /.test(l)),
  );
  const cli = await fs.readdir('src/cli');
  const help: string[] = [];
  for (const f of cli.filter((f) => f.endsWith('.ts'))) {
    const text = await fs.readFile(path.join('src/cli', f), 'utf8');
    // help texts are template literals (real line breaks) or quoted strings with \n escapes
    help.push(...(text.match(/\$ render-farm (?:(?!\\n)[^\n'`])*/g) ?? []));
  }
  return [...readme, ...help];
}

/** The files and directories an example line writes (comments after # are not read). */
function outputsOf(line: string): string[] {
  const command = line.replace(/\s#.*$/, '');
  const out: string[] = [];
  for (const re of [/--out\s+(\S+)/g, /\s-o\s+(\S+)/g, /\s>\s*([\w./-]+)/g]) {
    for (const m of command.matchAll(re)) out.push(m[1]!);
  }
  return out;
}

describe('outputs of the examples', () => {
  it('every file or directory an example writes into the checkout is in .gitignore', async () => {
    const outputs = [...new Set((await exampleLines()).flatMap(outputsOf))].filter(
      (p) => !path.isAbsolute(p) && !p.startsWith('$'),
    );
    // the ones the issue named are among them: the extraction reads the lines it should
    expect(outputs).toEqual(expect.arrayContaining(['gpu.glb', 'try.png', './try', './smoke', 'sprite.webp']));
    const notIgnored: string[] = [];
    for (const p of outputs) {
      // a directory's contents: `--out ./try` writes ./try/sprite.webp and the like
      const probe = path.extname(p) ? p : path.join(p, 'video.mp4');
      const r = await runProcess('git', ['check-ignore', '-q', '--no-index', probe]);
      if (r.code !== 0) notIgnored.push(p);
    }
    expect(notIgnored).toEqual([]);
  });
});
