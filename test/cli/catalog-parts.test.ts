/**
 * `render-farm catalog parts` as a child process on a test database (demo catalog plus the
 * OpenDB fixture): part IDs by category, searched, paged with --limit/--offset or --page, and
 * --json with the next page's command; `models add` with an unknown ID points at it (it used
 * to point at `GET /parts?category=...`, a 404).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOpenDb } from '../../src/catalog/importer.js';
import { seedDemoCatalog } from '../../src/catalog/seed-demo.js';
import { cliOn } from '../helpers/cli.js';
import { useTestDb } from '../helpers/db.js';
import { FIXTURE_DIR } from '../helpers/opendb-data.js';
import { distinctiveGpu } from '../helpers/gltf-fixtures.js';

describe('catalog parts', () => {
  const t = useTestDb();
  const cli = cliOn(t);
  /** every GPU, as the database orders a listing: name, then id */
  let gpus: { id: string; name: string }[];

  beforeAll(async () => {
    await seedDemoCatalog(t.db);
    await importOpenDb(t.db, FIXTURE_DIR);
    gpus = await t.db.db
      .selectFrom('parts')
      .select(['id', 'name'])
      .where('category', '=', 'GPU')
      .orderBy('name')
      .orderBy('id')
      .execute();
  }, 60_000);

  it('lists a category a page at a time, with the next page to run; following --page gives every part once', async () => {
    expect(gpus.length).toBeGreaterThan(20);
    const first = await cli('catalog', 'parts', '--category', 'GPU');
    expect(first.code, first.stderr).toBe(0);
    const lines = first.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+CATEGORY\s+MODEL\s+NAME$/);
    expect(lines.slice(1, -1).map((l) => l.split(/\s+/)[0])).toEqual(gpus.slice(0, 20).map((g) => g.id));
    expect(lines[1]).toMatch(new RegExp(`^${gpus[0]!.id}\\s+GPU\\s+-\\s+`));
    expect(lines.at(-1)).toBe(
      `1-20 of ${gpus.length} GPU parts; next page: render-farm catalog parts --category GPU --limit 20 --offset 20`,
    );

    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const r = await cli('catalog', 'parts', '--category', 'GPU', '--limit', '7', '--page', String(page), '--json');
      expect(r.code, r.stderr).toBe(0);
      const body = JSON.parse(r.stdout);
      expect(body.pagination).toMatchObject({ total: gpus.length, limit: 7, offset: (page - 1) * 7, page });
      for (const p of body.items) expect(p).toMatchObject({ category: 'GPU', model: null });
      seen.push(...body.items.map((p: { id: string }) => p.id));
      if (!body.pagination.hasNext) {
        expect(body.pagination.next).toBeNull();
        break;
      }
      expect(body.pagination.next.command).toBe(
        `render-farm catalog parts --category GPU --limit 7 --page ${page + 1}`,
      );
    }
    expect(seen).toEqual(gpus.map((g) => g.id));
  });

  it('--search finds text in names (any case) and IDs; --offset pages; past the end says so', async () => {
    const word = gpus[gpus.length - 1]!.name.split(/\s+/).find((w) => w.length >= 4)!;
    const matching = gpus.filter(
      (g) => g.name.toLowerCase().includes(word.toLowerCase()) || g.id.includes(word.toLowerCase()),
    );
    const r = await cli(
      'catalog',
      'parts',
      '--category',
      'GPU',
      '--search',
      word.toUpperCase(),
      '--limit',
      '100',
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).items.map((p: { id: string }) => p.id)).toEqual(matching.map((g) => g.id));

    // by ID, without a category
    const byId = await cli('catalog', 'parts', '--search', gpus[3]!.id, '--json');
    expect(JSON.parse(byId.stdout).items).toEqual([
      { id: gpus[3]!.id, category: 'GPU', name: gpus[3]!.name, model: null },
    ]);

    // LIKE's wildcards match only themselves
    const none = await cli('catalog', 'parts', '--search', '%_');
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout.trim()).toBe('no parts matching "%_"');

    const second = await cli('catalog', 'parts', '--category', 'GPU', '--limit', '5', '--offset', '5', '--json');
    expect(JSON.parse(second.stdout).items.map((p: { id: string }) => p.id)).toEqual(
      gpus.slice(5, 10).map((g) => g.id),
    );
    const past = await cli('catalog', 'parts', '--category', 'GPU', '--offset', '1000');
    expect(past.code, past.stderr).toBe(0);
    expect(past.stdout.trim()).toBe(`no GPU parts past 1000 (there are ${gpus.length})`);
  });

  it('refuses a bad category, a bad --limit and --offset with --page: exit 2 naming the flag and the value', async () => {
    const bad = await cli('catalog', 'parts', '--category', 'gpu');
    expect([bad.code, bad.stderr.trim()]).toEqual([
      2,
      'render-farm: --category must be one of PCCase, Motherboard, CPU, CPUCooler, GPU, RAM, Storage, PSU, CaseFan, got "gpu"',
    ]);
    const limit = await cli('catalog', 'parts', '--limit', '101');
    expect([limit.code, limit.stderr.trim()]).toEqual([
      2,
      'render-farm: --limit must be an integer from 1 to 100, got "101"',
    ]);
    const both = await cli('catalog', 'parts', '--offset', '20', '--page', '2');
    expect([both.code, both.stderr.trim()]).toEqual([2, 'render-farm: give --offset or --page, not both']);
  });

  it('models add with an unknown ID points at a listing that exists and lists the category', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-catalog-parts-'));
    try {
      const glb = path.join(tmp, 'card.glb');
      await fs.writeFile(glb, await distinctiveGpu(240, 2).glb());
      const r = await cli('models', 'add', 'nosuchgpu', glb);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('no part with ID "nosuchgpu"');
      expect(r.stderr).not.toContain('GET /parts?');
      const suggested = /(render-farm catalog parts --category <category>)/.exec(r.stderr)?.[1];
      expect(suggested, r.stderr).toBeTruthy();
      const listed = await cli(...suggested!.replace('render-farm ', '').replace('<category>', 'GPU').split(' '));
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(gpus[0]!.id);
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });
});
