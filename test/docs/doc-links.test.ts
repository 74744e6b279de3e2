/**
 * Every relative link in README.md and docs/**\/*.md leads somewhere: the file exists, and a
 * #fragment names a heading of the page it points at (GitHub's anchors). A page moved or a
 * heading renamed without fixing its links fails here.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages, readPage } from './doc-pages.js';

/** The text without fenced code blocks and code spans (a `](` in code is not a link). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, (m) => (/^`[^`]*\]\(/.test(m) ? '' : m));
}

/** GitHub's anchor of each heading of a page (`## The API in brief` -> `the-api-in-brief`; repeats get -1, -2). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]!
      .replace(/<[^>]+>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** The relative link targets of a page: `[text](target)` and `![alt](target)`, titles dropped. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe('links in README.md and docs/', () => {
  it('every relative link names an existing file, and a #fragment an existing heading', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of docPages()) {
      for (const target of relativeLinks(readPage(page))) {
        checked++;
        const [file, fragment] = target.split('#') as [string, string | undefined];
        const resolved = file === '' ? page : path.normalize(path.join(path.dirname(page), decodeURIComponent(file)));
        if (!existsSync(resolved)) {
          broken.push(`${page}: ${target} (no file ${resolved})`);
          continue;
        }
        if (
          fragment &&
          resolved.endsWith('.md') &&
          statSync(resolved).isFile() &&
          !anchors(readFileSync(resolved, 'utf8')).has(fragment)
        ) {
          broken.push(`${page}: ${target} (no heading #${fragment} in ${resolved})`);
        }
      }
    }
    // the pages do link to one another: the extraction finds them
    expect(checked).toBeGreaterThan(40);
    expect(broken).toEqual([]);
  });

  it('anchors follow GitHub: punctuation dropped, spaces to hyphens, repeats numbered', () => {
    const a = anchors(
      '# Two commands\n## `render-farm jobs list`\n## Farm: chunks, fairness (2026-11-23)\n## Farm: chunks, fairness (2026-11-23)\n```\n# not a heading\n```\n',
    );
    expect([...a]).toEqual([
      'two-commands',
      'render-farm-jobs-list',
      'farm-chunks-fairness-2026-11-23',
      'farm-chunks-fairness-2026-11-23-1',
    ]);
  });
});
