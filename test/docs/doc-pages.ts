/**
 * The hand-written documentation: README.md and every page under docs/ (the generated
 * references under docs/reference/ are left out where `handWritten` is asked for: their
 * synopses are placeholders, not examples).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    return e.isDirectory() ? markdownUnder(rel) : e.name.endsWith('.md') ? [rel] : [];
  });
}

/** README.md and docs/**\/*.md, as paths relative to the repository root. */
export function docPages(opts: { handWritten?: boolean } = {}): string[] {
  const pages = ['README.md', ...markdownUnder('docs').sort()];
  return opts.handWritten ? pages.filter((p) => !p.startsWith('docs/reference/')) : pages;
}

export function readPage(page: string): string {
  return readFileSync(page, 'utf8');
}
