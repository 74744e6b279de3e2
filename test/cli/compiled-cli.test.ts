/**
 * The compiled CLI (dist/, built by scripts/build.mjs) in a package laid out like an install
 * without dev dependencies: its node_modules has everything but tsx, so a start that reached for
 * tsx would fail. It runs, finds sql/ and farm/src/ from the package root, and computes the same
 * renderer version as the sources; without a current build it says so in one line.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendererVersion } from '../../src/render/renderer-version.js';
import { useTestDb } from '../helpers/db.js';

const exec = promisify(execFile);
const REPO = path.resolve('.');

let pkg: string;
const t = useTestDb();

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, [path.join(pkg, 'bin/render-farm'), ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: t.url, RENDER_FARM_DATA_DIR: t.cfg.dataDir },
      timeout: 60_000,
    });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** Runs a snippet against the package's compiled modules; returns what it prints. */
async function inPackage(code: string): Promise<string> {
  return (
    await exec(process.execPath, ['--input-type=module', '-e', code], { cwd: pkg, timeout: 60_000 })
  ).stdout.trim();
}

beforeAll(async () => {
  pkg = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-compiled-'));
  for (const f of ['package.json', 'bin/render-farm', 'scripts/build.mjs'])
    await fs.cp(path.join(REPO, f), path.join(pkg, f));
  for (const d of ['src', 'farm', 'sql']) await fs.symlink(path.join(REPO, d), path.join(pkg, d));
  const modules = await fs.realpath(path.join(REPO, 'node_modules'));
  await fs.mkdir(path.join(pkg, 'node_modules'));
  for (const name of await fs.readdir(modules)) {
    if (name !== 'tsx' && name !== '.bin')
      await fs.symlink(path.join(modules, name), path.join(pkg, 'node_modules', name));
  }
  await exec(process.execPath, [path.join(pkg, 'scripts/build.mjs')], { timeout: 60_000 });
});

afterAll(async () => {
  if (pkg) await fs.rm(pkg, { recursive: true, force: true });
});

describe('the compiled CLI, with no tsx installed', () => {
  it('--version and --help run from dist/, silently', async () => {
    const version = await cli('--version');
    expect(version).toMatchObject({ code: 0, stderr: '' });
    expect(version.stdout.trim()).toBe(JSON.parse(await fs.readFile(path.join(REPO, 'package.json'), 'utf8')).version);
    const help = await cli('jobs', '--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('$ render-farm jobs list');
  });

  it('db migrate and db status read sql/ from the package root', async () => {
    expect(await cli('db', 'migrate')).toMatchObject({ code: 0, stdout: 'database is up to date\n', stderr: '' });
    const status = await cli('db', 'status', '--json');
    expect(status.code, status.stderr).toBe(0);
    const rows = JSON.parse(status.stdout) as { version: string; applied: boolean }[];
    expect(rows.length).toBe((await fs.readdir(path.join(REPO, 'sql'))).filter((f) => f.endsWith('.sql')).length);
    expect(rows.every((r) => r.applied)).toBe(true);
  });

  it('hashes the same sources for the renderer version (cache keys), and bundles the stage from farm/src', async () => {
    const ls = await cli('pregen', 'ls', '--json');
    expect(ls.code, ls.stderr).toBe(0);
    expect((JSON.parse(ls.stdout) as { rendererVersion: string }).rendererVersion).toBe(await rendererVersion());
    // what src/render/stage-bundle.ts loads in the compiled build (test/cli/render.test.ts renders through it)
    const stage = await inPackage(
      "const m = await import('./dist/farm/build.js'); const b = await m.buildStageBundle(); console.log(b.js.length > 10000 && b.html.includes('stage.js'));",
    );
    expect(stage).toBe('true');
  });

  it('a stale build, then no build: one line saying so and how to build (no tsx to fall back on)', async () => {
    // the sources are newer than a build stamped at 1970
    await fs.utimes(path.join(pkg, 'dist/.built'), 1, 1);
    const stale = await cli('--version');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe(
      'render-farm: sources changed since the last build in dist/, and tsx (a dev dependency) is not installed to run the sources: run `npm run build`\n',
    );
    await fs.rm(path.join(pkg, 'dist'), { recursive: true });
    expect((await cli('--version')).stderr).toMatch(
      /^render-farm: no build in dist\/, and tsx .* run `npm run build`\n$/,
    );
  });

  it('without a build but with tsx: a one-line note, then the sources run', async () => {
    await fs.symlink(
      path.join(await fs.realpath(path.join(REPO, 'node_modules')), 'tsx'),
      path.join(pkg, 'node_modules', 'tsx'),
    );
    const r = await cli('--version');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'render-farm: no build in dist/; running the sources through tsx (`npm run build` compiles them)\n',
    );
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
