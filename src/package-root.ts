/**
 * The package's root directory (the one holding render-farm's package.json). Files read at run
 * time (sql/, farm/src/, package.json, the sources hashed for the renderer version) are found
 * from here, so the sources (src/, through tsx) and the compiled build (dist/src/) agree.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`render-farm: no package.json above ${start}`);
  }
}

export const PACKAGE_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
