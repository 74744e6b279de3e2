/**
 * docs/getting-started.md promises examples in every command's --help: each command of the real program tree
 * (src/cli/index.ts, every command registered), groups such as `jobs` and their sub-commands
 * alike, shows "Examples:" with `$ render-farm` lines.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildFullProgram } from '../../src/cli/index.js';

/** The root, every command and every sub-command, by their paths ('' for the root). */
function tree(cmd: Command, path: string[] = []): { path: string; cmd: Command }[] {
  const own = cmd.commands.filter((c) => c.name() !== 'help');
  return [{ path: path.join(' '), cmd }, ...own.flatMap((c) => tree(c, [...path, c.name()]))];
}

/** What `render-farm <path> --help` prints: the help plus the text added after it. */
function helpText(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => void (out += s), writeErr: (s) => void (out += s) });
  cmd.outputHelp();
  return out;
}

describe('--help of every command', () => {
  it('the tree has the commands the docs list, down to sub-commands', async () => {
    const names = tree(await buildFullProgram()).map((l) => l.path);
    expect(names).toEqual(
      expect.arrayContaining([
        '',
        'up',
        'render',
        'jobs',
        'jobs list',
        'jobs watch',
        'pregen',
        'pregen run',
        'pregen ls',
        'db migrate',
      ]),
    );
  });

  it('each command shows Examples: with at least one `$ render-farm` line', async () => {
    const missing: string[] = [];
    for (const { path, cmd } of tree(await buildFullProgram())) {
      const text = helpText(cmd);
      const examples = text.split('Examples:')[1];
      if (!examples || !/^\s+\$ render-farm \S/m.test(examples)) missing.push(path);
    }
    expect(missing).toEqual([]);
  });
});
