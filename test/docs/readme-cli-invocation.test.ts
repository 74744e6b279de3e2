/**
 * The README and the docs/ pages call the CLI one way, `render-farm`, and the README says how to
 * put it on the PATH (they used to mix `npx render-farm`, ~1.5 s a call as npm starts first, with
 * the 0.15 s binary, and never said how to get the binary). The PATH it gives is checked by
 * running it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.js';
import { docPages, readPage } from './doc-pages.js';

/** The lines of the code blocks of the README and the docs/ pages. */
function codeLines(): string[] {
  return docPages({ handWritten: true }).flatMap((page) =>
    [...readPage(page).matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')),
  );
}

describe('README and docs/: how the CLI is called', () => {
  it('every command line calls `render-farm`, none `npx render-farm`', async () => {
    const lines = codeLines();
    expect(lines.filter((l) => /\bnpx render-farm\b/.test(l))).toEqual([]);
    expect(lines.filter((l) => /^render-farm \S/.test(l)).length).toBeGreaterThan(10);
  });

  it('says how to put render-farm on the PATH, and what npx costs', async () => {
    const readme = await fs.readFile('README.md', 'utf8');
    expect(readme).toContain('npm install && npm link && render-farm up');
    expect(readme).toContain('export PATH="$PWD/bin:$PATH"');
    expect(readme).toMatch(/`npx\s+render-farm` works\s+from the checkout too, but starts npm first/);
    // npm link links the package's bin: the one file the PATH line also finds
    const pkg = JSON.parse(await fs.readFile('package.json', 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin).toEqual({ 'render-farm': 'bin/render-farm' });
  });

  it('the two commands on a fresh machine: the service, and the test command .ci/run runs', async () => {
    const readme = await fs.readFile('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Two commands on a fresh machine'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const commands = block
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm install && npm link && render-farm up', 'npm test']);
    // CI runs that test command (on a line that is not a comment; its reporters may follow `--`)
    expect(await fs.readFile('.ci/run', 'utf8')).toMatch(/^[^#\n]*\bnpm test(?: --|$)/m);
  });

  it("with the README's PATH, `render-farm` runs from any directory", async () => {
    const PATH = `${path.resolve('bin')}:${process.env.PATH}`;
    const r = await runProcess('render-farm', ['--version'], { cwd: '/', env: { PATH, HOME: process.env.HOME } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
