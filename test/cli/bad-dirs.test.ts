/**
 * A configured directory that cannot be created fails at once with one line naming the
 * setting and the path (docs/reference/configuration.md): Node's recursive mkdir used to spin forever at
 * full CPU under /proc, and a file in the way printed a bare ENOTDIR/EEXIST.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DirectoryError, ensureDir } from '../../src/ensure-dir.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { SPRITE_256_FAST } from '../helpers/render-args.js';

const bin = path.resolve('bin/render-farm');
/** far above a clean failure (a few seconds of tsx start-up), far below "hangs forever" */
const LIMIT_MS = 45_000;

function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; killed: boolean; stderr: string }> {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !k.startsWith('RENDER_FARM_') && k !== 'DATABASE_URL' && k !== 'STORAGE_URL',
      ),
    );
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...clean, ...env }, timeout: LIMIT_MS, killSignal: 'SIGKILL' },
      (err, _stdout, stderr) => {
        const e = err as (Error & { code?: number; killed?: boolean }) | null;
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, killed: e?.killed ?? false, stderr });
      },
    );
  });
}

describe('directories that cannot be created', () => {
  let tmp: string;
  let file: string;
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-bad-dirs-'));
    file = path.join(tmp, 'a-file');
    await fs.writeFile(file, 'not a directory');
  });
  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('up --data-dir /proc/x fails fast naming --data-dir and the path', async () => {
    const r = await cli(['up', '--no-worker', '--port', '0', '--data-dir', '/proc/x']);
    expect(r.killed).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(
      /^render-farm: data dir \(flag --data-dir\): cannot use \/proc\/x as a directory: .+/,
    );
  }, 60_000);

  it('render --out /proc/x fails fast naming --out', async () => {
    const r = await cli(['render', '--share-code', 'DEMO-GLASS', '--out', '/proc/x', ...SPRITE_256_FAST], {
      RENDER_FARM_DATA_DIR: path.join(tmp, 'render-data'),
    });
    expect(r.killed).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out\): cannot use \/proc\/x as a directory/);
  }, 60_000);

  // a command that creates the data dir (read-only ones never do: read-only-data-dir.test.ts)
  it('RENDER_FARM_DATA_DIR=/proc/x db migrate fails fast naming the variable', async () => {
    const r = await cli(['db', 'migrate'], { RENDER_FARM_DATA_DIR: '/proc/x' });
    expect(r.killed).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/data dir \(env RENDER_FARM_DATA_DIR\): cannot use \/proc\/x as a directory/);
  }, 60_000);

  it('a file where the data dir should be names the setting, not a bare ENOTDIR', async () => {
    const r = await cli(['catalog', 'stats', '--data-dir', path.join(file, 'sub')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `data dir (flag --data-dir): cannot use ${path.join(file, 'sub')} as a directory: ${file} is a file, not a directory`,
    );
    expect(r.stderr).not.toMatch(/ENOTDIR|EEXIST/);
    const out = await cli(['render', '--share-code', 'DEMO-GLASS', '--out', file], {
      RENDER_FARM_DATA_DIR: path.join(tmp, 'render-data'),
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `output directory (flag --out): cannot use ${file} as a directory: it exists and is not a directory`,
    );
  }, 60_000);

  it('ensureDir creates missing levels and reports each failure with the setting', async () => {
    const nested = path.join(tmp, 'x', 'y', 'z');
    expect(await ensureDir(nested, 'test dir')).toBe(nested);
    expect((await fs.stat(nested)).isDirectory()).toBe(true);
    expect(await ensureDir(nested, 'test dir')).toBe(nested); // already there: fine
    await expect(ensureDir('/proc/x/y', 'test dir')).rejects.toThrow(DirectoryError);
    await expect(ensureDir('/proc/x/y', 'test dir')).rejects.toThrow(
      /^test dir: cannot use \/proc\/x\/y as a directory/,
    );
    await expect(ensureDir(file, 'test dir')).rejects.toThrow(/it exists and is not a directory/);
  });

  it('the artifact store names STORAGE_URL', async () => {
    const cfg = loadConfig({ dataDir: tmp }, { STORAGE_URL: `file://${file}` });
    await expect(openArtifactStore(cfg)).rejects.toThrow(
      `artifact store (env STORAGE_URL): cannot use ${file} as a directory`,
    );
  });
});
