/**
 * Creates a configured directory (data dir, output dir, artifact store) or fails at once with
 * one line naming the setting and the path. Node's `mkdir(..., { recursive: true })` is not
 * used: where a parent refuses new entries with ENOENT (e.g. under /proc) it loops forever
 * at full CPU. Each missing level is created on its own, so every failure is seen.
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { UserError } from './errors.js';

/** A configured directory that cannot be used; the message names the setting and the path. */
export class DirectoryError extends UserError {
  constructor(
    /** e.g. `data dir (flag --data-dir)` */
    public readonly setting: string,
    public readonly dir: string,
    reason: string,
  ) {
    // a bad setting: exit 2 like a bad flag; in the API (an unusable artifact dir) a 500 that says why
    super('unusable_directory', `${setting}: cannot use ${dir} as a directory: ${reason}`, {
      exitCode: 2,
      status: 500,
    });
    this.name = 'DirectoryError';
  }
}

const code = (err: unknown) => (err as NodeJS.ErrnoException)?.code ?? '';

function why(err: unknown, at: string): string {
  switch (code(err)) {
    case 'EACCES':
    case 'EPERM':
      return `permission denied creating ${at}`;
    case 'EROFS':
      return `${at} is on a read-only file system`;
    case 'ENOENT':
      // the parent exists but refuses new entries (a virtual file system such as /proc)
      return `${at} cannot be created there (the file system refuses it)`;
    case 'ENOSPC':
      return `no space left to create ${at}`;
    case 'ENAMETOOLONG':
      return 'the path is too long';
    default:
      return `${at}: ${(err as Error)?.message ?? String(err)}`;
  }
}

/**
 * Makes sure `dir` exists, is a directory and is writable, creating missing levels.
 * `setting` says where the path came from, for the error: `data dir (env RENDER_FARM_DATA_DIR)`.
 * Returns the absolute path.
 */
export async function ensureDir(dir: string, setting: string): Promise<string> {
  return (await ensureDirCreating(dir, setting)).path;
}

/**
 * ensureDir, also saying which levels it created (outermost first), so a command that fails
 * afterwards can remove what it made and nothing the user made (removeCreatedDirs).
 */
export async function ensureDirCreating(dir: string, setting: string): Promise<{ path: string; created: string[] }> {
  const abs = path.resolve(dir);
  const fail = (reason: string) => new DirectoryError(setting, abs, reason);
  // walk up to the nearest existing ancestor
  const missing: string[] = [];
  for (let cur = abs; ; ) {
    let isDir: boolean;
    try {
      isDir = (await fs.stat(cur)).isDirectory();
    } catch (err) {
      if (code(err) !== 'ENOENT' && code(err) !== 'ENOTDIR') throw fail(why(err, cur));
      missing.unshift(cur);
      const parent = path.dirname(cur);
      if (parent === cur) throw fail(`no existing parent directory`);
      cur = parent;
      continue;
    }
    if (!isDir) throw fail(cur === abs ? 'it exists and is not a directory' : `${cur} is a file, not a directory`);
    break;
  }
  const created: string[] = [];
  for (const level of missing) {
    try {
      await fs.mkdir(level);
      created.push(level);
    } catch (err) {
      // another process may have created it meanwhile
      if (
        code(err) === 'EEXIST' &&
        (await fs.stat(level).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      )
        continue;
      if (code(err) === 'EEXIST') throw fail(`${level} exists and is not a directory`);
      throw fail(why(err, level));
    }
  }
  try {
    await fs.access(abs, constants.W_OK | constants.X_OK);
  } catch {
    throw fail('it is not writable by this user');
  }
  return { path: abs, created };
}

/** Removes directories ensureDirCreating made, innermost first, each only while empty. */
export async function removeCreatedDirs(created: readonly string[]): Promise<void> {
  for (const level of [...created].reverse()) {
    // ENOTEMPTY: something was written there after all; keep it and its parents
    if (
      !(await fs.rmdir(level).then(
        () => true,
        () => false,
      ))
    )
      return;
  }
}
