/**
 * `render-farm pregen` as a child process on a small matrix (256x256 sprites, fast profile):
 * entries appear, a rerun renders nothing, Ctrl-C mid-run then a rerun completes only the rest,
 * --dry-run renders nothing, a failing item exits non-zero with a clear line.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS as I } from '../../src/catalog/demo-catalog.js';
import { useTestDb } from '../helpers/db.js';

const bin = path.resolve('bin/render-farm');
const MATRIX = `PCCase=${I.caseCubeItx} Motherboard=${I.boardB650Itx} GPU=${I.gpuMini1Fan},${I.gpuCompact2Fan},${I.gpuArcBlower}`;
const VARIANT = ['--formats', 'sprite', '--profiles', 'fast', '--sizes', '256x256'];

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

describe('pregen command', () => {
  const t = useTestDb();
  let env: Record<string, string>;

  /** Runs the CLI; `interruptWhen` sends SIGINT once stdout matches it. */
  function pregen(args: string[], interruptWhen?: RegExp): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, 'pregen', ...args], { env: { ...process.env, ...env } });
      let stdout = '';
      let stderr = '';
      let sent = false;
      child.stdout.on('data', (d) => {
        stdout += d;
        if (interruptWhen && !sent && interruptWhen.test(stdout)) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
  }

  const entries = async () =>
    await t.db.db.selectFrom('pregenerated').select(['combination_key', 'artifact_key', 'bytes']).execute();

  beforeAll(async () => {
    env = {
      DATABASE_URL: t.url,
      RENDER_FARM_DATA_DIR: t.cfg.dataDir,
      LOG_LEVEL: 'silent',
      RENDER_FARM_SEED_DEMO: 'true',
    };
  });

  it('--dry-run lists what would render and renders nothing', async () => {
    const r = await pregen(['--matrix', MATRIX, ...VARIANT, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/^would render/gm)).toHaveLength(3);
    expect(r.stdout).toMatch(/dry run: 3 of 3 items would render, 216 frames/);
    expect(await entries()).toHaveLength(0);
  });

  it('pregen --help names the sub-commands and where the flags of a run are', async () => {
    const r = await pregen(['--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\s+run \[options\]/m);
    expect(r.stdout).toMatch(/^\s+ls \[options\]/m);
    expect(r.stdout).toMatch(/^\s+rm \[options\] \[keys\.\.\.\]/m);
    // the run's flags (--builds, --matrix ...) are only in `pregen run --help`
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('`pregen run --help` lists its flags');
  });

  it('a failing item exits 1 with a line naming it and why', async () => {
    const r = await pregen(['--matrix', `PCCase=${I.caseCubeItx} GPU=nosuchgpu1`, ...VARIANT]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/failed .*matrix #1 .*unknown part ID: nosuchgpu1/);
    expect(r.stderr).toMatch(/some items failed/);
    expect(await entries()).toHaveLength(0);
  });

  it('is interruptible with Ctrl-C and resumes with only the rest; a third run renders nothing', async () => {
    const first = await pregen(['--matrix', MATRIX, ...VARIANT], /\[1\/3\] done/);
    expect(first.code, first.stdout + first.stderr).toBe(130);
    expect(first.stdout).toMatch(/interrupted: \d+ not rendered; run the same command again to resume/);
    const after = await entries();
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after.length).toBeLessThan(3);
    // nothing half-written: every stored file has its row, and no temp files are left
    const dir = path.join(t.cfg.dataDir, 'artifacts', 'pregen');
    const stored = await fs.readdir(dir);
    expect(stored.sort()).toEqual(after.map((e) => e.combination_key).sort());
    for (const e of after) {
      const st = await fs.stat(path.join(t.cfg.dataDir, 'artifacts', e.artifact_key));
      expect(st.size).toBe(Number(e.bytes));
    }

    const second = await pregen(['--matrix', MATRIX, ...VARIANT]);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toContain(`${after.length} already pregenerated`);
    expect(second.stdout.match(/ done /g)).toHaveLength(3 - after.length);
    // each done line counts the items published so far; only the last says 100%
    const n = 3 - after.length;
    const doneLines = second.stdout.split('\n').filter((l) => / done /.test(l));
    expect(doneLines.at(-1)).toMatch(new RegExp(`\\(${n}/${n} items, 100%\\)$`));
    for (const [k, l] of doneLines.slice(0, -1).entries())
      expect(l).toMatch(new RegExp(`\\(${k + 1}/${n} items, \\d{1,2}%\\)$`));
    expect(await entries()).toHaveLength(3);

    const third = await pregen(['--matrix', MATRIX, ...VARIANT]);
    expect(third.code).toBe(0);
    expect(third.stdout).toMatch(/pregen: 0 rendered, 3 already pregenerated/);
  }, 180_000);

  it('pregen ls and rm inspect and prune the cache', async () => {
    const ls = await pregen(['ls', '--json']);
    expect(ls.code, ls.stderr).toBe(0);
    const listed = JSON.parse(ls.stdout);
    expect(listed.entries).toHaveLength(3);
    // (stale depends on whether farm or render code changed since the renders: not asserted)
    expect(listed.entries[0]).toMatchObject({
      format: 'sprite',
      width: 256,
      height: 256,
      profile: 'fast',
      stale: expect.any(Boolean),
      source: 'matrix',
    });
    const victim = listed.entries[0].key as string;
    const rm = await pregen(['rm', victim.slice(0, 10)]);
    expect(rm.stdout).toMatch(/removed 1 entry/);
    expect((await entries()).map((e) => e.combination_key)).not.toContain(victim);
    await expect(fs.stat(path.join(t.cfg.dataDir, 'artifacts', 'pregen', victim, 'sprite.webp'))).rejects.toThrow();
    expect((await pregen(['rm'])).code).toBe(2);
  });
});
