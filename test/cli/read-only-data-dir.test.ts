/**
 * Commands that only read the farm never create a data dir (docs/getting-started.md, "Using the CLI"): a mistyped
 * --data-dir made the directory and an empty embedded cluster, then answered "no jobs" (exit 0)
 * or blamed "another program" for the port the real farm's PostgreSQL holds. Now it is a usage
 * error (exit 2) naming the path and what creates a farm, before any PostgreSQL starts; doctor
 * reports it as a failed row instead of creating it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../src/db/free-port.js';
import { checkDataDir } from '../../src/doctor/data-dir-check.js';

const bin = path.resolve('bin/render-farm');
const SOME_JOB = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

/** Every command that only reads the farm, as a user would type it. */
const READERS: string[][] = [
  ['jobs', 'list'],
  ['jobs', 'list', '--kind', 'thumbnails'],
  ['jobs', 'show', SOME_JOB],
  ['jobs', 'watch', SOME_JOB],
  ['jobs', 'retry', SOME_JOB],
  ['jobs', 'cancel', SOME_JOB],
  ['builds', 'list'],
  ['builds', 'show', 'DEMO-GLASS'],
  ['models', 'list'],
  ['models', 'show', 'okgxgd18p'],
  ['catalog', 'stats'],
  ['catalog', 'parts', '--category', 'GPU'],
  ['pregen', 'ls'],
  ['top', '--once'],
  ['db', 'status'],
  ['keys', 'list'],
  ['webhooks', 'list'],
  ['webhooks', 'deliveries'],
  ['cache', 'stats'],
];

describe('read-only commands and a data dir that is not there', () => {
  let tmp: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-read-only-'));
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k, v]) => v !== undefined && !k.startsWith('RENDER_FARM_') && k !== 'DATABASE_URL' && k !== 'STORAGE_URL',
      ),
    );
    // a port of its own: were a PostgreSQL started, it would not meet another one
    env = { ...(clean as Record<string, string>), RENDER_FARM_PG_PORT: String(await freePort()) };
  });
  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  const cli = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [bin, ...args], { env, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
      });
    });

  it('a mistyped --data-dir: exit 2 naming the path and what creates a farm; nothing is created', async () => {
    const typo = path.join(tmp, 'render-farmm');
    for (const args of READERS) {
      const r = await cli([...args, '--data-dir', typo]);
      const what = args.join(' ');
      expect(r.code, `${what}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr.trim(), what).toBe(
        `render-farm: data dir (flag --data-dir): ${typo} does not exist: check the path ("render-farm up" or "render-farm serve" creates it; commands that only read do not)`,
      );
      expect(existsSync(typo), `${what} created ${typo}`).toBe(false);
    }
  }, 240_000);

  it('the same from RENDER_FARM_DATA_DIR, and for a directory that holds no farm (no cluster made in it)', async () => {
    const env0 = env;
    env = { ...env0, RENDER_FARM_DATA_DIR: path.join(tmp, 'nope') };
    try {
      const r = await cli(['jobs', 'list']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`data dir (env RENDER_FARM_DATA_DIR): ${path.join(tmp, 'nope')} does not exist`);
    } finally {
      env = env0;
    }
    const empty = path.join(tmp, 'empty');
    await fs.mkdir(empty);
    const r = await cli(['jobs', 'list', '--data-dir', empty]);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr.trim()).toBe(
      `render-farm: data dir (flag --data-dir): ${empty} holds no render-farm database (no ${path.join(empty, 'pg')}): check the path ("render-farm up" or "render-farm serve" creates it; commands that only read do not)`,
    );
    expect(await fs.readdir(empty)).toEqual([]);
  }, 60_000);

  it('doctor: a failed data-dir row naming the path, with the fix; the directory is not created', async () => {
    const typo = path.join(tmp, 'doctor-typo');
    const row = await checkDataDir(loadConfig({ dataDir: typo }, {}));
    expect(row).toMatchObject({ status: 'fail', detail: `data dir (flag --data-dir): ${typo} does not exist` });
    expect(row.fix).toBe(
      'check the path (--data-dir or RENDER_FARM_DATA_DIR); "render-farm up" or "render-farm serve" creates it (doctor does not)',
    );
    expect(existsSync(typo)).toBe(false);
    // an existing one still passes
    expect((await checkDataDir(loadConfig({ dataDir: tmp }, {}))).status).not.toBe('fail');
  });
});
