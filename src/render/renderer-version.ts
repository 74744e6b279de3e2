/**
 * The renderer's version for cache keys: a hash of the code that decides pixels (the farm
 * stage, the Node render and encode sides). Changing any of it invalidates cached renders.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT as ROOT } from '../package-root.js';
import type { Dirent } from 'node:fs';

const DIRS = ['farm/src', 'src/model', 'src/render', 'src/encode'];

let memo: Promise<string> | null = null;

async function listFiles(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p)));
    else if (/\.(ts|js|glsl|json)$/.test(e.name)) out.push(p);
  }
  return out;
}

export function rendererVersion(): Promise<string> {
  memo ??= (async () => {
    const hash = createHash('sha256');
    const files = (await Promise.all(DIRS.map((d) => listFiles(path.join(ROOT, d))))).flat().sort();
    for (const f of files) {
      hash
        .update(path.relative(ROOT, f))
        .update('\0')
        .update(await fs.readFile(f))
        .update('\0');
    }
    return hash.digest('hex').slice(0, 16);
  })();
  return memo;
}
