/** `render-farm render` argument handling: bad input exits 2 with one clear line and writes nothing. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { parsePartsFlags } from '../../src/cli/parts-flag.js';
import { renderOptionsFromFlags } from '../../src/cli/render-option-flags.js';

const run = promisify(execFile);
const bin = path.resolve('bin/render-farm');

async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const r = await run(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stderr: r.stderr, stdout: r.stdout };
  } catch (err) {
    const e = err as { code: number; stderr: string; stdout: string };
    return { code: e.code, stderr: e.stderr, stdout: e.stdout };
  }
}

describe('render command', () => {
  const out = path.join(os.tmpdir(), `render-cli-${process.pid}`);

  it('rejects bad option values with exit 2 before rendering', async () => {
    const r = await cli(['render', '--share-code', 'DEMO-GLASS', '--out', out, '--width', '100', '--height', '300']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--width: .*256/);
    const both = await cli(['render', '--share-code', 'DEMO-GLASS', '--out', out, '--winter', '--spring']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/mutually exclusive/);
    const none = await cli(['render', '--out', out]);
    expect(none.stderr).toMatch(/exactly one of --parts, --share-code or --build/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a --build map the shared parts rules refuse, before creating --out', async () => {
    const file = path.join(os.tmpdir(), `render-cli-build-${process.pid}.json`);
    await writeFile(file, JSON.stringify({ parts: { GPU: ['a', 'b', 'c'] } }));
    try {
      const r = await cli(['render', '--build', file, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/a build holds at most 2 GPU parts, got 3/);
      await writeFile(file, JSON.stringify({ parts: { GPU: [] } }));
      const empty = await cli(['render', '--build', file, '--out', out]);
      expect(empty.code).toBe(2);
      expect(empty.stderr).toMatch(/parts\.GPU: .*>=1/);
      // a /render-build body: its options are checked by the API's schema, the file named
      await writeFile(file, JSON.stringify({ parts: { GPU: ['a'] }, width: 100, height: 300 }));
      const small = await cli(['render', '--build', file, '--out', out]);
      expect(small.code).toBe(2);
      expect(small.stderr).toContain(`build file ${file}: width: `);
      // and the flags go over them, with the API's rules on the result
      await writeFile(file, JSON.stringify({ parts: { GPU: ['a'] }, winterMode: true }));
      const seasons = await cli(['render', '--build', file, '--out', out, '--spring']);
      expect(seasons.code).toBe(2);
      expect(seasons.stderr).toMatch(/with the flags: springMode: .*mutually exclusive/);
      expect(existsSync(out)).toBe(false);
    } finally {
      await rm(file, { force: true });
    }
  });

  it('renders a /render-build body given as --build: its options apply, a flag goes over one', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'render-cli-body-'));
    // mkdtemp makes it 0700; run as root, the embedded server's own OS user must get in
    await chmod(tmp, 0o755);
    try {
      const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
      const file = path.join(tmp, 'body.json');
      await writeFile(
        file,
        JSON.stringify({
          parts: glass.parts,
          format: 'sprite',
          width: 256,
          height: 256,
          profile: 'fast',
          scene: 'night',
        }),
      );
      const r = await cli(
        ['render', '--build', file, '--out', path.join(tmp, 'out'), '--scene', 'dawn', '--no-screenshot', '--json'],
        { RENDER_FARM_DATA_DIR: path.join(tmp, 'data') },
      );
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout) as { options: Record<string, unknown>; files: { path: string }[] };
      expect(summary.options).toMatchObject({
        format: 'sprite',
        width: 256,
        height: 256,
        profile: 'fast',
        scene: 'dawn',
      });
      expect(summary.files.map((f) => path.basename(f.path))).toEqual(['sprite.webp']);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a repeated --share-code, and --model with several, before anything starts', async () => {
    const twice = await cli([
      'render',
      '--share-code',
      'DEMO-GLASS',
      '--share-code',
      'DEMO-MESH',
      '--share-code',
      'DEMO-GLASS',
      '--out',
      out,
    ]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/--share-code DEMO-GLASS is given twice/);
    const model = await cli([
      'render',
      '--share-code',
      'DEMO-GLASS',
      '--share-code',
      'DEMO-MESH',
      '--model',
      'x=./x.glb',
      '--out',
      out,
    ]);
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(/--model takes one build/);
    expect(existsSync(out)).toBe(false);
  });

  it('an unknown share code among several fails with exit 2 before any render writes a file', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'render-cli-codes-'));
    await chmod(tmp, 0o755);
    try {
      const dir = path.join(tmp, 'out');
      // the unknown codes come after a good one: every code is looked up before the first renders
      const r = await cli(
        [
          'render',
          '--share-code',
          'DEMO-GLASS',
          '--share-code',
          'NO-SUCH-1',
          '--share-code',
          'DEMO-MESH',
          '--share-code',
          'NO-SUCH-2',
          '--format',
          'sprite',
          '--profile',
          'fast',
          '--out',
          dir,
        ],
        {
          RENDER_FARM_DATA_DIR: path.join(tmp, 'data'),
        },
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/no builds with share codes "NO-SUCH-1", "NO-SUCH-2" \(see: render-farm builds list\)/);
      expect(r.stderr).not.toMatch(/render DEMO-GLASS/);
      expect(existsSync(dir)).toBe(false);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }, 120_000);

  it('one --share-code: files directly in --out, one JSON summary object, text lines naming no build (as before --share-code repeated)', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'render-cli-one-'));
    await chmod(tmp, 0o755);
    const small = ['--format', 'sprite', '--width', '256', '--height', '256', '--profile', 'fast', '--no-screenshot'];
    const env = { RENDER_FARM_DATA_DIR: path.join(tmp, 'data') };
    try {
      const json = path.join(tmp, 'json');
      const r = await cli(['render', '--share-code', 'DEMO-GLASS', ...small, '--json', '--out', json], env);
      expect(r.code, r.stderr).toBe(0);
      // one summary object (not an array), without the shareCode the several-build entries carry
      const summary = JSON.parse(r.stdout) as Record<string, unknown> & { files: { path: string }[] };
      expect(Array.isArray(summary)).toBe(false);
      expect(summary).not.toHaveProperty('shareCode');
      expect(summary).toMatchObject({ frames: 72, options: { format: 'sprite', width: 256, height: 256 } });
      expect(summary.files.map((f) => f.path)).toEqual([path.join(json, 'sprite.webp')]);
      expect(await readdir(json)).toEqual(['sprite.webp']);

      const text = path.join(tmp, 'text');
      const t = await cli(['render', '--share-code', 'DEMO-GLASS', ...small, '--out', text], env);
      expect(t.code, t.stderr).toBe(0);
      const lines = t.stdout.trim().split('\n');
      expect(lines[0]).toMatch(
        new RegExp(`^${path.join(text, 'sprite.webp').replaceAll('.', '\\.')}  3072x1536  \\d+ KiB$`),
      );
      expect(lines[1]).toMatch(/^72 frames in \d+\.\d s \(/);
      expect(lines).toHaveLength(2);
      expect(t.stderr).not.toMatch(/render DEMO-GLASS \(/);
      expect(await readdir(text)).toEqual(['sprite.webp']);

      // several: the text names each build, whose files go into --out/CODE/
      const many = path.join(tmp, 'many');
      const m = await cli(
        ['render', '--share-code', 'DEMO-MESH', '--share-code', 'DEMO-GLASS', ...small, '--out', many],
        env,
      );
      expect(m.code, m.stderr).toBe(0);
      expect(m.stdout).toMatch(/^DEMO-MESH: 72 frames in /m);
      expect(m.stdout).toMatch(/^DEMO-GLASS: 72 frames in /m);
      expect(m.stderr).toMatch(/^render DEMO-MESH \(1\/2\)$/m);
      expect((await readdir(many)).sort()).toEqual(['DEMO-GLASS', 'DEMO-MESH']);
      expect(await readdir(path.join(many, 'DEMO-MESH'))).toEqual(['sprite.webp']);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }, 180_000);

  it('says when Chromium is missing', async () => {
    const r = await cli(['render', '--share-code', 'DEMO-GLASS', '--out', out], {
      CHROMIUM_PATH: '/nonexistent/chromium',
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(/Chromium not found .*CHROMIUM_PATH/);
  });

  it('maps flags to API render options', () => {
    expect(
      renderOptionsFromFlags({
        format: 'sprite',
        width: '640',
        height: '480',
        showGrid: false,
        winter: true,
        gridColor: '#ffffff',
        cameraZoom: '3',
      }),
    ).toEqual({
      format: 'sprite',
      width: 640,
      height: 480,
      showGrid: false,
      winterMode: true,
      cameraZoom: 3,
      gridSettings: { color: '#ffffff' },
    });
    expect(parsePartsFlags(['GPU=a,b', 'RAM=c', 'GPU=d'])).toEqual({ GPU: ['a', 'b', 'd'], RAM: ['c'] });
    expect(() => parsePartsFlags(['GPU'])).toThrow(/CATEGORY=id/);
  });
});
