/**
 * Commands that only read the farm (list, show, stats, watch, top) open the data dir they are
 * given, never make one: opening the embedded PostgreSQL creates the directory and a new empty
 * cluster, so a mistyped --data-dir used to answer "no jobs" from a farm of its own (or fail on
 * the port the real farm's PostgreSQL holds). `up`, `serve` and the commands that write create it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describeSetting, type Config } from '../config.js';
import { DirectoryError } from '../ensure-dir.js';
import { UserError } from '../errors.js';

/** The data dir holds no farm: exit 2, the message names the path and what creates one. */
export class MissingDataDirError extends UserError {
  constructor(message: string) {
    super('missing_data_dir', message, { exitCode: 2, status: 500 });
    this.name = 'MissingDataDirError';
  }
}

/** What makes a farm in a data dir, for the messages (doctor's too). */
export const CREATES_DATA_DIR = '"render-farm up" or "render-farm serve" creates it';

const code = (err: unknown) => (err as NodeJS.ErrnoException)?.code ?? '';

/**
 * Throws unless `cfg`'s farm can be read without creating anything: with DATABASE_URL there is
 * nothing to check; else the data dir must exist and hold the embedded PostgreSQL cluster
 * (`<dataDir>/pg/PG_VERSION`, which initdb writes). A path through a file is DirectoryError,
 * as when a command would create it.
 */
export async function requireExistingDataDir(cfg: Config): Promise<void> {
  if (cfg.databaseUrl) return;
  const dir = path.resolve(cfg.dataDir);
  const setting = describeSetting(cfg, 'dataDir', 'data dir');
  let isDir: boolean;
  try {
    isDir = (await fs.stat(dir)).isDirectory();
  } catch (err) {
    if (code(err) === 'ENOTDIR')
      throw new DirectoryError(setting, dir, `${await fileOnTheWay(dir)} is a file, not a directory`);
    if (code(err) !== 'ENOENT') throw new DirectoryError(setting, dir, (err as Error).message);
    throw new MissingDataDirError(
      `${setting}: ${dir} does not exist: check the path (${CREATES_DATA_DIR}; commands that only read do not)`,
    );
  }
  if (!isDir) throw new DirectoryError(setting, dir, 'it exists and is not a directory');
  const cluster = path.join(dir, 'pg');
  const initialised = await fs.stat(path.join(cluster, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!initialised) {
    throw new MissingDataDirError(
      `${setting}: ${dir} holds no render-farm database (no ${cluster}): check the path (${CREATES_DATA_DIR}; commands that only read do not)`,
    );
  }
}

/** The nearest ancestor of `dir` that exists (a file, when stat said ENOTDIR). */
async function fileOnTheWay(dir: string): Promise<string> {
  for (let cur = path.dirname(dir); ; cur = path.dirname(cur)) {
    if (
      await fs.stat(cur).then(
        () => true,
        () => false,
      )
    )
      return cur;
    if (cur === path.dirname(cur)) return cur;
  }
}
