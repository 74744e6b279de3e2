/**
 * The console's pregen page in a real Chromium against the real API: after the saved builds are
 * pregenerated as cinematic sprites (what `pregen --builds all --formats sprite --profiles
 * cinematic` stores: the plan's items published into the store and the cache table), the page
 * lists exactly what `pregen ls` lists, with the profile, and the saved builds' coverage says the
 * cinematic sprites are current. A console key that is not admin sees no fill action.
 */
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { planPregen } from '../../src/pregen/plan.js';
import { publishFile } from '../../src/pregen/publish.js';
import { buildSources } from '../../src/pregen/sources.js';
import { rendererVersion } from '../../src/render/renderer-version.js';
import { useTestApi } from '../helpers/api.js';
import { cliOn } from '../helpers/cli.js';
import { launchConsoleBrowser, type ConsoleBrowser } from '../helpers/console-browser.js';
import { useTempDir } from '../helpers/temp-dir.js';

const api = useTestApi();
const tmp = useTempDir('rf-console-pregen-');

describe('console pregen page', () => {
  let b: ConsoleBrowser;
  let adminKey: string;
  let filled: string[];

  beforeAll(async () => {
    b = await launchConsoleBrowser(api);
    adminKey = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
    // what the pregen run stores for each rendered item (a tiny sheet stands in for the pixels)
    const version = await rendererVersion();
    const sheet = path.join(tmp(), 'sheet.webp');
    await sharp({ create: { width: 24, height: 12, channels: 3, background: '#336699' } })
      .webp()
      .toFile(sheet);
    const items = await planPregen(api.t.db, await buildSources(api.t.db, 'all'), {
      base: {},
      formats: ['sprite'],
      profiles: ['cinematic'],
      sizes: [],
      rendererVersion: version,
    });
    const deps = { db: api.t.db, store: api.server.ctx.store, rendererVersion: version };
    filled = [];
    for (const item of items.filter((i) => i.action === 'render')) {
      await publishFile(deps, item, sheet, { renderMs: 1000, framesPerSecond: 72 });
      filled.push(item.key);
    }
    expect(filled.length).toBeGreaterThan(1);
  }, 120_000);

  afterAll(async () => {
    await b?.close();
  });

  it('lists what `pregen ls` lists, with the profile, and the cinematic sprites as current', async () => {
    const ls = await cliOn(api.t)('pregen', 'ls', '--json', '--limit', '1000');
    expect(ls.code, ls.stderr).toBe(0);
    const listed = (JSON.parse(ls.stdout) as { entries: { key: string; profile: string; stale: boolean }[] }).entries;
    expect(listed.map((e) => e.key).sort()).toEqual([...filled].sort());

    const page = await b.openAs(adminKey, '#/pregen');
    await page.waitForSelector('table.pregen-table tr[data-key]');
    const rows = await page.$$eval('table.pregen-table tr[data-key]', (trs) =>
      trs.map((tr) => ({
        key: tr.getAttribute('data-key'),
        state: tr.getAttribute('data-state'),
        profile: tr.querySelector('[data-profile]')?.textContent,
      })),
    );
    expect(rows.map((r) => r.key).sort()).toEqual(listed.map((e) => e.key).sort());
    expect(rows.every((r) => r.profile === 'cinematic' && r.state === 'current')).toBe(true);
    expect(await page.$eval('[data-count=current]', (e) => e.textContent)).toBe(`${filled.length} current`);
    expect(await page.$eval('[data-count=stale]', (e) => e.textContent)).toBe('0 stale');
    const headers = await page.$$eval('table.pregen-table th', (ths) => ths.map((t) => t.textContent));
    expect(headers).toContain('profile');

    // the saved builds: cinematic sprites all current, the fast ones (never pregenerated) missing
    const variant = async (v: string) =>
      page.$eval(`tr[data-variant="${v}"]`, (tr) => ({
        current: Number(tr.querySelector('[data-current]')?.textContent),
        stale: Number(tr.querySelector('[data-stale]')?.textContent),
        missing: Number(tr.querySelector('[data-missing]')?.textContent),
      }));
    const cinematic = await variant('sprite/cinematic');
    expect(cinematic.missing).toBe(0);
    expect(cinematic.stale).toBe(0);
    expect(cinematic.current).toBeGreaterThanOrEqual(filled.length);
    expect((await variant('sprite/fast')).current).toBe(0);
    expect((await variant('sprite/fast')).missing).toBeGreaterThan(0);
    await page.browserContext().close();
  }, 60_000);
});
