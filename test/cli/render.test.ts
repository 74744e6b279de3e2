/** `render-farm render` argument handling: bad input exits 2 with one clear line and writes nothing. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
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
      await writeFile(file, JSON.stringify({ parts: glass.parts, format: 'sprite', width: 256, height: 256, profile: 'fast', scene: 'night' }));
      const r = await cli(['render', '--build', file, '--out', path.join(tmp, 'out'), '--scene', 'dawn', '--no-screenshot', '--json'], { RENDER_FARM_DATA_DIR: path.join(tmp, 'data') });
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout) as { options: Record<string, unknown>; files: { path: string }[] };
      expect(summary.options).toMatchObject({ format: 'sprite', width: 256, height: 256, profile: 'fast', scene: 'dawn' });
      expect(summary.files.map((f) => path.basename(f.path))).toEqual(['sprite.webp']);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }, 120_000);

  it('says when Chromium is missing', async () => {
    const r = await cli(['render', '--share-code', 'DEMO-GLASS', '--out', out], { CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(/Chromium not found .*CHROMIUM_PATH/);
  });

  it('maps flags to API render options', () => {
    expect(renderOptionsFromFlags({ format: 'sprite', width: '640', height: '480', showGrid: false, winter: true, gridColor: '#ffffff', cameraZoom: '3' })).toEqual({
      format: 'sprite', width: 640, height: 480, showGrid: false, winterMode: true, cameraZoom: 3, gridSettings: { color: '#ffffff' },
    });
    expect(parsePartsFlags(['GPU=a,b', 'RAM=c', 'GPU=d'])).toEqual({ GPU: ['a', 'b', 'd'], RAM: ['c'] });
    expect(() => parsePartsFlags(['GPU'])).toThrow(/CATEGORY=id/);
  });
});
