/**
 * docs/ARCHITECTURE.md matches the tree: every source file under src/ is named in it (by file
 * name, or by its ink `ui/` folder), and every file name it names exists. A file added without
 * a row, or a row left behind by a move, fails here instead of drifting.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const doc = readFileSync('docs/ARCHITECTURE.md', 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(rel) : /\.(ts|tsx|mjs|cjs)$/.test(e.name) ? [rel] : [];
  });
}

describe('docs/ARCHITECTURE.md', () => {
  it('names every source file under src/', () => {
    const unnamed = filesUnder('src').filter((f) => {
      if (doc.includes(path.basename(f))) return false;
      // the ink screens are named by folder (pregen/ui/, top/ui/)
      const ui = /src\/(\w+)\/ui\//.exec(f);
      return !(ui && doc.includes(`${ui[1]}/ui/`));
    });
    expect(unnamed).toEqual([]);
  });

  it('names no file that does not exist', () => {
    const top = readdirSync('.').filter((f) => /\.(ts|mjs|cjs)$/.test(f));
    const tree = new Set(
      [...top, ...['src', 'farm', 'tools', 'test', 'bench', 'scripts'].flatMap(filesUnder)].map((f) =>
        path.basename(f),
      ),
    );
    const named = [...doc.matchAll(/`(?:[\w./-]*\/)?([\w.-]+\.(?:ts|tsx|mjs|cjs))`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(50);
    expect([...new Set(named.filter((n) => !tree.has(n)))]).toEqual([]);
  });
});
