/** Doctor: the data dir exists (doctor never creates it), can be written, and has room for renders. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describeSetting, type Config } from '../config.js';
import { CREATES_DATA_DIR } from '../db/existing-data-dir.js';
import { DirectoryError, ensureDir } from '../ensure-dir.js';
import type { CheckOutcome } from './check.js';

const MiB = 1024 * 1024;
/** below this a render can fail half-way (a 1080p video's frames and output) */
export const MIN_FREE_BYTES = 512 * MiB;
export const WARN_FREE_BYTES = 2048 * MiB;

export const formatBytes = (n: number) =>
  n >= 1024 * MiB ? `${(n / 1024 / MiB).toFixed(1)} GiB` : `${Math.round(n / MiB)} MiB`;

const DATA_DIR_FIX = 'choose a writable directory with --data-dir or RENDER_FARM_DATA_DIR, or fix its permissions';

export async function checkDataDir(cfg: Config): Promise<CheckOutcome> {
  const dir = cfg.dataDir;
  // doctor only looks: a missing data dir is reported, not created (a mistyped --data-dir must not become a farm)
  if (
    await fs.stat(dir).then(
      () => false,
      (err: NodeJS.ErrnoException) => err.code === 'ENOENT',
    )
  ) {
    return {
      status: 'fail',
      detail: `${describeSetting(cfg, 'dataDir', 'data dir')}: ${path.resolve(dir)} does not exist`,
      fix: `check the path (--data-dir or RENDER_FARM_DATA_DIR); ${CREATES_DATA_DIR} (doctor does not)`,
      data: { path: dir, exists: false },
    };
  }
  try {
    // checked the way serve/up create it: Node's recursive mkdir loops forever under /proc
    await ensureDir(dir, describeSetting(cfg, 'dataDir', 'data dir'));
    const probe = path.join(dir, `.doctor-${randomBytes(4).toString('hex')}`);
    await fs.writeFile(probe, 'ok');
    await fs.rm(probe);
  } catch (err) {
    if (err instanceof DirectoryError) return { status: 'fail', detail: err.message, fix: DATA_DIR_FIX };
    const e = err as NodeJS.ErrnoException;
    return { status: 'fail', detail: `${dir} is not writable (${e.code ?? e.message})`, fix: DATA_DIR_FIX };
  }
  const st = await fs.statfs(dir);
  const free = st.bavail * st.bsize;
  const data = { path: dir, freeBytes: free };
  if (free < MIN_FREE_BYTES) {
    return {
      status: 'fail',
      detail: `${dir}: only ${formatBytes(free)} free`,
      fix: `free disk space (at least ${formatBytes(WARN_FREE_BYTES)} recommended) or move the data dir`,
      data,
    };
  }
  if (free < WARN_FREE_BYTES) {
    return {
      status: 'warn',
      detail: `${dir}: ${formatBytes(free)} free`,
      fix: `renders and the embedded PostgreSQL need room: ${formatBytes(WARN_FREE_BYTES)} or more is recommended`,
      data,
    };
  }
  return { status: 'ok', detail: `${dir}: writable, ${formatBytes(free)} free`, data };
}
