/** A scratch directory for one test file: made in beforeAll, removed with its contents in afterAll. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** Returns the directory's path (call it inside a test or a hook). */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (!dir) throw new Error(`the ${prefix} directory is made in beforeAll: use it inside a test or a hook`);
    return dir;
  };
}
