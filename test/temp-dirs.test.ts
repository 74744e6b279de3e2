/**
 * Scratch directories carry their owner's pid, and those of dead processes are swept away
 * (docs/rendering.md, scratch space): a SIGKILLed render left its Chromium profile (3-7 MB) in the temp dir
 * for good. Real processes: a CLI render killed mid-way, then a fresh process's first scratch dir.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, processAlive, sweepStaleTempDirs } from '../src/temp-dirs.js';
import { waitFor } from './helpers/wait-for.js';
import { useTestDb } from './helpers/db.js';

const run = promisify(execFile);
const bin = path.resolve('bin/render-farm');
const OWNED = /^render-farm-[a-z-]+-(\d+)-[A-Za-z0-9]{6}$/;

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  expect(processAlive(child.pid!)).toBe(false);
  return child.pid!;
}

/** Pids whose command line mentions `dir` (Linux /proc): Chromium names its profile there. */
async function processesUsing(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(dir)) pids.push(Number(entry));
  }
  return pids;
}

describe('scratch directories', () => {
  let tmp: string;
  const t = useTestDb();
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-temp-dirs-'));
  });
  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('are named with the owning pid', async () => {
    const dir = await makeTempDir('job');
    try {
      expect(path.dirname(dir)).toBe(os.tmpdir());
      expect(path.basename(dir)).toMatch(new RegExp(`^render-farm-job-${process.pid}-[A-Za-z0-9]{6}$`));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('of dead owners are swept; live owners, this process and other names are kept', async () => {
    const dir = path.join(tmp, 'sweep');
    await fs.mkdir(dir);
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const dead = await deadPid();
      const names = {
        dead: `render-farm-chromium-${dead}-aB3dE6`,
        deadJob: `render-farm-pregen-copy-${dead}-Zz9Yy8`,
        live: `render-farm-chromium-${live.pid}-aB3dE6`,
        mine: `render-farm-job-${process.pid}-aB3dE6`,
        legacy: 'render-farm-chromium-aB3dE6',
        other: `rf-test-data-${dead}-aB3dE6`,
      };
      for (const n of Object.values(names)) {
        await fs.mkdir(path.join(dir, n, 'Default'), { recursive: true });
        await fs.writeFile(path.join(dir, n, 'Default', 'Cookies'), 'x');
      }
      const removed = await sweepStaleTempDirs(dir);
      expect(removed.sort()).toEqual([names.dead, names.deadJob].sort());
      expect((await fs.readdir(dir)).sort()).toEqual([names.legacy, names.live, names.mine, names.other].sort());
    } finally {
      live.kill('SIGKILL');
    }
  });

  it('a SIGKILLed render leaves its Chromium profile; the next process sweeps it at start', async () => {
    const dir = path.join(tmp, 'killed');
    await fs.mkdir(dir);
    const env = { ...process.env, TMPDIR: dir, DATABASE_URL: t.url, RENDER_FARM_DATA_DIR: path.join(tmp, 'data') };
    const child = spawn(
      process.execPath,
      [
        bin,
        'render',
        '--share-code',
        'DEMO-GLASS',
        '--format',
        'video',
        '--profile',
        'fast',
        '--out',
        path.join(tmp, 'out'),
      ],
      { env, stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const profile = new RegExp(`^render-farm-chromium-${child.pid}-`);
    await waitFor(
      'the render to make its Chromium profile',
      async () => {
        const names = await fs.readdir(dir);
        if (names.some((n) => profile.test(n))) return true;
        if (child.exitCode !== null)
          throw new Error(`the render exited ${child.exitCode} before it made its Chromium profile`);
        return false;
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    child.kill('SIGKILL');
    await exited;
    const left = (await fs.readdir(dir)).filter((n) => OWNED.test(n));
    expect(left.some((n) => profile.test(n))).toBe(true);

    // Chromium, orphaned by the kill, exits once its pipe closes: wait for it to stop writing
    await waitFor('the orphaned Chromium to exit', () => processesUsing(dir), {
      until: (pids) => pids.length === 0,
      timeoutMs: 30_000,
      intervalMs: 300,
    });
    expect(await processesUsing(dir)).toEqual([]);

    // a fresh process: its first scratch dir sweeps the dead one's away
    const next = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "const m = await import('./src/temp-dirs.ts'); console.log(await m.makeTempDir('job'));",
      ],
      {
        env: { ...process.env, TMPDIR: dir },
      },
    );
    const names = await fs.readdir(dir);
    expect(names.filter((n) => profile.test(n))).toEqual([]);
    expect(names).toContain(path.basename(next.stdout.trim()));
  }, 150_000);
});
