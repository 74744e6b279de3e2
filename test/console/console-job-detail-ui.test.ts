/**
 * The console's job detail and jobs list in a real Chromium against the real API: a finished
 * sprite job of a saved build shows its build (share code and parts), size, profile and scene,
 * each result captioned ("drag to turn" on the sprite) with a download link and a copy-URL button
 * that puts the file's absolute URL on the clipboard, and ISO 8601 UTC dates; a job submitted
 * with parts only shows its parts; the list has build and size columns. The finished render is
 * what a worker leaves (files in the store, the row completed with its artifacts and layout),
 * written here without rendering: the render path has its own tests (console-ui.test.ts).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { renderArtifactKey, RENDER_FILE_NAMES } from '../../src/storage/artifact-key.js';
import { useTestApi } from '../helpers/api.js';
import { launchConsoleBrowser, type ConsoleBrowser } from '../helpers/console-browser.js';

const api = useTestApi();
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('console job detail', () => {
  let b: ConsoleBrowser;
  let adminKey: string;
  let spriteJob: string;
  let partsJob: string;

  beforeAll(async () => {
    b = await launchConsoleBrowser(api);
    adminKey = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
    const sub = await api.call('POST', '/render-by-share-code', {
      token: api.key,
      body: { shareCode: 'DEMO-GLASS', format: 'sprite', width: 256, height: 256, profile: 'fast', scene: 'night' },
    });
    expect(sub.status, sub.text).toBeLessThan(300);
    spriteJob = sub.json.job_id;
    // what a worker leaves: the sheet (12 x 6 frames of 32 px) and the still in the store, the row completed
    const render = await api.t.db.db
      .selectFrom('jobs as j')
      .innerJoin('renders as r', 'r.id', 'j.render_id')
      .select(['r.id', 'r.cache_key'])
      .where('j.id', '=', spriteJob)
      .executeTakeFirstOrThrow();
    const store = api.server.ctx.store;
    /** a plain width x height WebP of one colour, stored at key */
    const putWebp = async (key: string, width: number, height: number, background: string) =>
      store.putBuffer(
        key,
        await sharp({ create: { width, height, channels: 3, background } })
          .webp()
          .toBuffer(),
        'image/webp',
      );
    const sheetKey = renderArtifactKey(render.cache_key, RENDER_FILE_NAMES.sprite);
    const stillKey = renderArtifactKey(render.cache_key, RENDER_FILE_NAMES.screenshot);
    await putWebp(sheetKey, 384, 192, '#335577');
    await putWebp(stillKey, 32, 32, '#775533');
    await api.t.db.db
      .updateTable('renders')
      .set({
        status: 'completed',
        progress: 1,
        artifacts: JSON.stringify({ sprite: sheetKey, screenshot: stillKey }),
        sprite_layout: JSON.stringify({ columns: 12, rows: 6, frames: 72, frame_width: 32, frame_height: 32 }),
        finished_at: new Date(),
      })
      .where('id', '=', render.id)
      .execute();
    const parts = await api.call('POST', '/render-build', {
      token: api.key,
      body: { parts: { PCCase: ['adp88gxul'] }, format: 'video', width: 320, height: 256, profile: 'flat' },
    });
    expect(parts.status, parts.text).toBeLessThan(300);
    partsJob = parts.json.job_id;
  }, 60_000);

  afterAll(async () => {
    await b?.close();
  });

  it('shows the build, size, profile and scene, captioned results with download and copy-URL, ISO UTC dates', async () => {
    const page = await b.openAs(adminKey, `#/jobs/${spriteJob}`);
    await page.waitForSelector('.page.job[data-status=completed] [data-result=sprite]');
    const fact = (name: string) => page.$eval(`[data-fact=${name}]`, (e) => e.textContent?.trim());
    expect(await fact('build')).toContain('DEMO-GLASS');
    expect(await page.$$eval('[data-fact=build] .job-parts li', (li) => li.length)).toBeGreaterThan(3);
    expect(await fact('size')).toBe('256x256');
    expect(await fact('profile')).toBe('fast');
    expect(await fact('scene')).toBe('night');
    expect(await fact('created')).toMatch(ISO_UTC);
    expect(await fact('updated')).toMatch(ISO_UTC);

    expect(await page.$eval('[data-result=sprite] figcaption', (e) => e.textContent)).toContain('drag to turn');
    expect(await page.$eval('[data-result=still] figcaption', (e) => e.textContent)).toContain('Still');
    const download = await page.$eval('[data-result=sprite] [data-action=download]', (a) => ({
      href: (a as HTMLAnchorElement).href,
      download: a.getAttribute('download'),
    }));
    expect(download.download).toBe(`${spriteJob}.webp`);
    // the link serves the sheet
    const served = await page.evaluate(async (u) => {
      const r = await fetch(u);
      return [r.status, r.headers.get('content-type')];
    }, download.href);
    expect(served).toEqual([200, 'image/webp']);

    await page
      .browserContext()
      .overridePermissions(api.url, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await page.bringToFront();
    await page.click('[data-result=sprite] [data-action=copy-url]');
    await page.waitForSelector('[data-result=sprite] [data-action=copy-url][data-copied=yes]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(download.href);
    await page.browserContext().close();
  }, 60_000);

  it('shows the parts of a job submitted without a share code; the list has build and size columns', async () => {
    const page = await b.openAs(adminKey, `#/jobs/${partsJob}`);
    await page.waitForSelector('[data-fact=build]');
    const build = await page.$eval('[data-fact=build]', (e) => e.textContent);
    expect(build).toContain('PCCase');
    expect(build).toContain('adp88gxul');
    expect(await page.$eval('[data-fact=size]', (e) => e.textContent)).toBe('320x256');
    expect(await page.$eval('[data-fact=profile]', (e) => e.textContent)).toBe('flat');

    await page.click('[data-nav=jobs]');
    await page.waitForSelector(`tr[data-job="${spriteJob}"]`);
    const headers = await page.$$eval('table.jobs-table th', (th) => th.map((t) => t.textContent));
    expect(headers).toEqual(expect.arrayContaining(['build', 'size']));
    const row = (id: string) =>
      page.$eval(`tr[data-job="${id}"]`, (tr) => ({
        build: tr.querySelector('[data-col=build]')?.textContent,
        size: tr.querySelector('[data-col=size]')?.textContent,
        created: tr.querySelector('[data-col=created]')?.textContent,
      }));
    expect(await row(spriteJob)).toEqual({
      build: 'DEMO-GLASS',
      size: '256x256',
      created: expect.stringMatching(ISO_UTC),
    });
    expect(await row(partsJob)).toMatchObject({ build: '1 part', size: '320x256' });
    await page.browserContext().close();
  }, 60_000);
});
