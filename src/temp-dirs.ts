/**
 * Scratch directories (Chromium profiles, render job and pregen folders) are named
 * `render-farm-<kind>-<pid>-<random>` in the OS temp dir, with the pid of the process that owns
 * them. A process that is killed (SIGKILL, OOM, a lost machine) cannot clean up, and each of
 * these is 3-7 MB; so the first scratch directory a process makes sweeps away the ones whose
 * owner no longer runs. A pid reused by an unrelated live process only delays the sweep.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const PREFIX = 'render-farm-';
/** kind (letters and dashes), owner pid, mkdtemp's six random characters */
const NAME = /^render-farm-([a-z]+(?:-[a-z]+)*)-(\d+)-[A-Za-z0-9]{6}$/;

let swept: Promise<unknown> | null = null;

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the scratch directories in `dir` (default: the OS temp dir) whose owning process is
 * gone; returns their names. Other processes' live directories and all other files are kept.
 */
export async function sweepStaleTempDirs(dir: string = os.tmpdir()): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[2]);
    if (pid === process.pid || processAlive(pid)) continue;
    try {
      await fs.rm(path.join(dir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // another process's sweep, or a file it cannot remove: leave it for the next one
    }
  }
  return removed;
}

/**
 * A new scratch directory owned by this process, e.g. `makeTempDir('chromium')`. The caller
 * removes it when done; if the process dies first, a later process's sweep does.
 */
export async function makeTempDir(kind: string): Promise<string> {
  if (!/^[a-z]+(-[a-z]+)*$/.test(kind))
    throw new Error(`temp dir kind must be lower-case letters and dashes, got "${kind}"`);
  swept ??= sweepStaleTempDirs().catch(() => []);
  await swept;
  const base = os.tmpdir();
  try {
    return await fs.mkdtemp(path.join(base, `${PREFIX}${kind}-${process.pid}-`));
  } catch (err) {
    throw new Error(`cannot create a scratch directory in ${base} (TMPDIR): ${(err as Error).message}`);
  }
}
