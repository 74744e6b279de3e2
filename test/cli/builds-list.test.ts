/**
 * `render-farm builds list` as a child process on a test database: newest first, paged, with
 * the next page in --json; `builds show` and `render` with an unknown share code exit 2 and
 * point at it, and render leaves no --out directory it created.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { createBuild } from '../../src/catalog/builds.js';
import { seedDemoCatalog } from '../../src/catalog/seed-demo.js';
import { cliOn } from '../helpers/cli.js';
import { useTestDb } from '../helpers/db.js';
import { SPRITE_256_FAST } from '../helpers/render-args.js';

describe('builds list', () => {
  const t = useTestDb();
  let tmp: string;
  const cli = cliOn(t);

  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-builds-list-'));
    await seedDemoCatalog(t.db);
    const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
    // created after the demo builds: first in the list
    await createBuild(t.db, {
      name: 'Newest rig',
      shareCode: 'NEWEST-RIG',
      parts: { PCCase: glass.parts.PCCase!, GPU: glass.parts.GPU! },
    });
  }, 60_000);
  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('shows the demo builds and a created one, newest first, with share code, name, part count and time', async () => {
    const r = await cli('builds', 'list');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^SHARE CODE\s+NAME\s+PARTS\s+CREATED$/);
    expect(lines[1]).toMatch(/^NEWEST-RIG\s+Newest rig\s+2\s+\d{4}-\d\d-\d\dT/);
    for (const b of DEMO_BUILDS) expect(r.stdout).toContain(b.shareCode);
    expect(lines.at(-1)).toBe(`1-${DEMO_BUILDS.length + 1} of ${DEMO_BUILDS.length + 1}`);
  });

  it('pages with --limit and --skip; --json says how to get the next page', async () => {
    const total = DEMO_BUILDS.length + 1;
    const first = await cli('builds', 'list', '--limit', '5', '--json');
    expect(first.code, first.stderr).toBe(0);
    const p1 = JSON.parse(first.stdout);
    expect(p1.items).toHaveLength(5);
    expect(p1.items[0]).toMatchObject({ shareCode: 'NEWEST-RIG', name: 'Newest rig', partCount: 2 });
    expect(p1.pagination).toMatchObject({
      total,
      limit: 5,
      skip: 0,
      hasNext: true,
      next: { skip: 5, limit: 5, command: 'render-farm builds list --limit 5 --skip 5' },
    });
    // follow the pages to the end: every build once
    const seen: string[] = p1.items.map((b: { shareCode: string }) => b.shareCode);
    let next = p1.pagination.next;
    while (next) {
      const page = JSON.parse(
        (await cli('builds', 'list', '--limit', String(next.limit), '--skip', String(next.skip), '--json')).stdout,
      );
      seen.push(...page.items.map((b: { shareCode: string }) => b.shareCode));
      next = page.pagination.next;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const table = await cli('builds', 'list', '--limit', '5');
    expect(table.stdout.trim().split('\n').at(-1)).toBe(
      `1-5 of ${total}; next page: render-farm builds list --limit 5 --skip 5`,
    );
  });

  it('a bad --limit or --skip is a usage error (exit 2) naming the flag and its range', async () => {
    for (const bad of ['0', '101', '2.5']) {
      const r = await cli('builds', 'list', '--limit', bad);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(`render-farm: --limit must be an integer from 1 to 100, got "${bad}"`);
    }
    const r = await cli('builds', 'list', '--skip', '-1');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--skip must be an integer from 0/);
  });

  it('--help has examples', async () => {
    for (const cmd of [['builds'], ['builds', 'list']]) {
      const r = await cli(...cmd, '--help');
      expect(r.stdout).toMatch(/Examples:\n\s+\$ render-farm builds list/);
    }
  });

  it('builds show with an unknown share code is unknown input, as in render: exit 2, naming the code and builds list', async () => {
    const r = await cli('builds', 'show', 'DEMO-GLAS');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('render-farm: no build with share code "DEMO-GLAS" (see: render-farm builds list)');
    const json = await cli('builds', 'show', 'DEMO-GLAS', '--json');
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
  });

  it('render with a mistyped share code names a command that exists and leaves no --out dir it created', async () => {
    const out = path.join(tmp, 'new', 'out');
    const r = await cli('render', '--share-code', 'DEMO-GLAS', '--out', out, ...SPRITE_256_FAST);
    expect(r.code).toBe(2);
    const suggested = /see: render-farm ([^)]+)\)/.exec(r.stderr)?.[1];
    expect(suggested, r.stderr).toBeTruthy();
    const listed = await cli(...suggested!.split(' '));
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('DEMO-GLASS');
    expect(existsSync(path.join(tmp, 'new'))).toBe(false);

    // a directory the user made is left alone
    const mine = path.join(tmp, 'mine');
    await fs.mkdir(mine);
    const again = await cli('render', '--share-code', 'DEMO-GLAS', '--out', mine);
    expect(again.code).toBe(2);
    expect(existsSync(mine)).toBe(true);
  });
});
