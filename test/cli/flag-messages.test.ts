/**
 * Usage errors name the flag that was typed and the bad value (docs/reference/configuration.md), as a user
 * sees them: child processes, exit 2, one line on stderr. None of these start a database.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSizes } from '../../src/pregen/plan.js';

const bin = path.resolve('bin/render-farm');

describe('flag error messages', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-flag-messages-'));
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const cli = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('RENDER_FARM_') && k !== 'DATABASE_URL'),
      );
      execFile(
        process.execPath,
        [bin, ...args],
        { env: { ...env, RENDER_FARM_DATA_DIR: dataDir }, timeout: 45_000 },
        (err, _out, stderr) => {
          resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr });
        },
      );
    });

  it('--pg-port abc names --pg-port (not --embedded-pg-port) and "abc"', async () => {
    const r = await cli(['catalog', 'stats', '--pg-port', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'render-farm: invalid configuration: embeddedPgPort (flag --pg-port): expected a number, got "abc"',
    );
  }, 60_000);

  // --gl is a setting: validated by config, in one place, for every command that takes it
  it('--gl bogus gives the same one line in render and pregen', async () => {
    const render = await cli([
      'render',
      '--share-code',
      'DEMO-GLASS',
      '--out',
      path.join(dataDir, 'out'),
      '--gl',
      'bogus',
    ]);
    const pregen = await cli(['pregen', '--builds', 'all', '--dry-run', '--gl', 'bogus']);
    const line =
      'render-farm: invalid configuration: glBackend (flag --gl): expected one of auto, gpu, egl, swiftshader, got "bogus"';
    expect([render.code, render.stderr.trim()]).toEqual([2, line]);
    expect([pregen.code, pregen.stderr.trim()]).toEqual([2, line]);
  }, 60_000);

  it('worker --concurrency 0 names --concurrency and the value', async () => {
    const r = await cli(['worker', '--concurrency', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(flag --concurrency): must be at least 1, got "0"');
  }, 60_000);

  it('pregen --sizes 200x200 names --sizes and the size', async () => {
    const r = await cli(['pregen', '--builds', 'all', '--formats', 'sprite', '--sizes', '200x200', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('render-farm: --sizes: width and height must be 256 to 8192, got "200x200"');
    // checked before anything starts: no embedded PostgreSQL was set up in the data dir
    expect(await fs.readdir(dataDir)).toEqual([]);
  }, 60_000);

  // src/cli/common.ts: a typo in an enumerated flag is echoed beside every choice
  it('every enumerated flag echoes the bad value and lists the choices (exit 2, before any database)', async () => {
    const out = path.join(dataDir, 'out');
    const cases: [string[], string][] = [
      [
        ['render', '--share-code', 'DEMO-GLASS', '--out', out, '--format', 'sprit'],
        '--format must be one of video, sprite, got "sprit"',
      ],
      [
        ['render', '--share-code', 'DEMO-GLASS', '--out', out, '--profile', 'cinema'],
        '--profile must be one of cinematic, flat, fast, got "cinema"',
      ],
      [
        ['render', '--share-code', 'DEMO-GLASS', '--out', out, '--frame-quality', 'ultra'],
        '--frame-quality must be one of standard, high, got "ultra"',
      ],
      [
        ['render', '--share-code', 'DEMO-GLASS', '--out', out, '--scene', 'moon'],
        '--scene must be one of sunset, dawn, night, warehouse, forest, apartment, studio, studio_v2, city, park, lobby, got "moon"',
      ],
      [
        ['pregen', '--builds', 'all', '--dry-run', '--formats', 'video,gif'],
        '--formats takes a comma list of video, sprite, got "gif"',
      ],
      [
        ['pregen', '--builds', 'all', '--dry-run', '--profiles', 'cinema'],
        '--profiles takes a comma list of cinematic, flat, fast, got "cinema"',
      ],
      [['pregen', 'ls', '--format', 'sprit'], '--format must be one of video, sprite, got "sprit"'],
      [['pregen', 'rm', '--profile', 'cinema'], '--profile must be one of cinematic, flat, fast, got "cinema"'],
      [
        ['jobs', 'list', '--status', 'failed'],
        '--status must be one of queued, processing, completed, error, got "failed"',
      ],
      [['jobs', 'list', '--kind', 'thumbs'], '--kind must be one of renders, thumbnails, got "thumbs"'],
      [
        ['models', 'list', '--category', 'gpu'],
        '--category must be one of PCCase, Motherboard, CPU, CPUCooler, GPU, RAM, Storage, PSU, CaseFan, got "gpu"',
      ],
      [
        ['webhooks', 'deliveries', '--status', 'error'],
        '--status must be one of pending, delivered, failed, got "error"',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect([r.code, r.stderr.trim()], args.join(' ')).toEqual([2, `render-farm: ${message}`]);
    }
    // all refused before anything starts: no embedded PostgreSQL was set up in the data dir
    expect(await fs.readdir(dataDir)).toEqual([]);
  }, 120_000);

  it('parseSizes accepts the range and names --sizes otherwise', () => {
    expect(parseSizes('256x256, 1920x1080')).toEqual([
      { width: 256, height: 256 },
      { width: 1920, height: 1080 },
    ]);
    expect(() => parseSizes('512x9000')).toThrow('--sizes: width and height must be 256 to 8192, got "512x9000"');
    expect(() => parseSizes('big')).toThrow(/--sizes takes WIDTHxHEIGHT/);
  });
});
