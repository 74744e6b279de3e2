/**
 * One parts map, one answer: the API (a real server), `render-farm render` (the CLI as a child
 * process) and pregen's plan accept or refuse the same maps and name the same problem
 * (src/model/parts-map.ts for the map's rules, src/catalog/resolve-build.ts for the IDs).
 * A map without a case is accepted everywhere: the stage draws its default case.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS as I } from '../../src/catalog/demo-catalog.js';
import { resolveBuild } from '../../src/catalog/resolve-build.js';
import { parsePartsMap } from '../../src/model/parts-map.js';
import { planPregen } from '../../src/pregen/plan.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { runProcess, type ProcessResult } from '../helpers/run-process.js';

const bin = path.resolve('bin/render-farm');
const SMALL = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;
const SMALL_FLAGS = ['--format', 'sprite', '--width', '256', '--height', '256', '--profile', 'fast'];

type Case = { name: string; parts: Record<string, string[]> } & (
  | { accept: true }
  | { accept: false; code: string; names: RegExp }
);

const CASES: Case[] = [
  {
    name: 'good',
    parts: { PCCase: [I.caseCubeItx], Motherboard: [I.boardB650Itx], GPU: [I.gpuMini1Fan] },
    accept: true,
  },
  { name: 'no case', parts: { Motherboard: [I.boardB650Itx], GPU: [I.gpuMini1Fan] }, accept: true },
  {
    name: 'unknown category',
    parts: { Toaster: ['x'], GPU: [I.gpuMini1Fan] },
    accept: false,
    code: 'invalid_category',
    names: /unknown category Toaster/,
  },
  {
    name: 'too many of a category',
    parts: { GPU: [I.gpuMini1Fan, I.gpuCompact2Fan, I.gpuDual2Fan] },
    accept: false,
    code: 'invalid_parts',
    names: /at most 2 GPU parts, got 3/,
  },
  { name: 'empty', parts: {}, accept: false, code: 'invalid_body', names: /parts must not be empty/ },
  {
    name: 'unknown ID',
    parts: { PCCase: [I.caseCubeItx], GPU: ['nosuchgpu1'] },
    accept: false,
    code: 'part_not_found',
    names: /nosuchgpu1/,
  },
];

describe('parts map parity: API, render CLI, pregen plan', () => {
  let api: TestApi;
  let token: string;
  let env: Record<string, string>;
  let tmp: string;

  beforeAll(async () => {
    api = await startTestApi();
    token = (await api.call('POST', '/auth/render-session', { token: api.key, body: { scopes: ['render:submit'] } }))
      .json.session_token;
    env = {
      DATABASE_URL: api.t.url,
      RENDER_FARM_DATA_DIR: api.t.cfg.dataDir,
      LOG_LEVEL: 'silent',
      RENDER_FARM_SEED_DEMO: 'true',
    };
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'parts-parity-'));
  });
  afterAll(async () => {
    await api?.close();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  /** `render-farm render --build <map>`: the CLI as a user runs it. */
  async function cliRender(c: Case): Promise<ProcessResult & { out: string }> {
    const slug = c.name.replace(/\W+/g, '-');
    const file = path.join(tmp, `${slug}.json`);
    const out = path.join(tmp, `out-${slug}`);
    await fs.writeFile(file, JSON.stringify({ parts: c.parts }));
    const run = await runProcess(process.execPath, [bin, 'render', '--build', file, '--out', out, ...SMALL_FLAGS], {
      env: { ...process.env, ...env },
    });
    return { ...run, out };
  }

  async function planOne(c: Case) {
    const items = await planPregen(api.t.db, [{ label: c.name, source: 'test', parts: c.parts }], {
      base: {},
      formats: ['sprite'],
      profiles: ['fast'],
      sizes: [{ width: 256, height: 256 }],
      rendererVersion: 'parity-test',
    });
    expect(items).toHaveLength(1);
    return items[0]!;
  }

  for (const c of CASES) {
    it(`${c.name}: ${c.accept ? 'accepted' : 'refused'} by the API and pregen`, async () => {
      const r = await api.call('POST', '/render-build', { token, body: { parts: c.parts, ...SMALL } });
      const item = await planOne(c);
      if (c.accept) {
        expect([200, 202], r.text).toContain(r.status);
        expect(item.action, item.reason).toBe('render');
      } else {
        expect(r.status, r.text).toBe(c.code === 'part_not_found' ? 404 : 400);
        expect(r.json.error).toBe(c.code);
        expect(r.json.message).toMatch(c.names);
        expect(item.action).toBe('invalid');
        expect(item.reason).toMatch(c.names);
      }
    });
  }

  for (const c of CASES.filter((c) => !c.accept)) {
    it(`${c.name}: refused by render-farm render with exit 2, naming the same problem, writing nothing`, async () => {
      if (c.accept) return;
      const r = await cliRender(c);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(c.names);
      expect(existsSync(r.out)).toBe(false);
    });
  }

  it('good: accepted by the library path render-farm render takes (map rules, then the catalog)', async () => {
    const c = CASES.find((c) => c.name === 'good')!;
    const check = parsePartsMap(c.parts);
    expect(check.ok).toBe(true);
    const { build } = await resolveBuild(api.t.db, check.ok ? check.parts : {});
    expect(
      Object.values(build.parts)
        .flat()
        .map((p) => p.id)
        .sort(),
    ).toEqual(Object.values(c.parts).flat().sort());
  });

  it('no case: render-farm render draws it (default case) and writes the sprite', async () => {
    const r = await cliRender(CASES.find((c) => c.name === 'no case')!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/no PCCase in the build; drew a default/);
    expect((await fs.stat(path.join(r.out, 'sprite.webp'))).size).toBeGreaterThan(0);
  }, 180_000);
});
